#!/bin/sh
# A program that fails: bench-on-target.test packs it as a training program.
exit 4
