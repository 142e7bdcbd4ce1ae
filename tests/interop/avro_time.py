#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Time python3-avro (Debian's reference Avro 1.11) decoding every record of
an Avro container file. Prints `<CPU milliseconds> <records>`.

usage: /usr/bin/python3 avro_time.py FILE.avro
"""
import sys
import time
import warnings

import avro.datafile
import avro.io

warnings.simplefilter("ignore")
t0 = time.process_time()
n = 0
with open(sys.argv[1], "rb") as fh:
    for _ in avro.datafile.DataFileReader(fh, avro.io.DatumReader()):
        n += 1
print("%.3f %d" % ((time.process_time() - t0) * 1000.0, n))
