#!/bin/sh
# Makes the certificates of the TLS test in DIR: a CA and a task
# certificate it signs for 127.0.0.1 (task.pem, task.key), and a rogue CA
# with a certificate of its own for the same address (rogue.pem,
# rogue.key). EC P-256 keys, valid for a day.
set -e
dir=$1
cd "$dir"
for ca in ca rogue-ca; do
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout $ca.key -out $ca.pem -days 1 -subj "/CN=tfc test $ca" 2>/dev/null
done
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' > san.ext
for pair in task:ca rogue:rogue-ca; do
  name=${pair%%:*}
  ca=${pair#*:}
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout $name.key -out $name.csr -subj "/CN=127.0.0.1" 2>/dev/null
  openssl x509 -req -in $name.csr -CA $ca.pem -CAkey $ca.key -CAcreateserial \
    -out $name.pem -days 1 -extfile san.ext 2>/dev/null
done
