#!/bin/sh
# A check that passes: check-on-target.test packs it as a binary.
exit 0
