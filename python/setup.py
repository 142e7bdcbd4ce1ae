# SPDX-License-Identifier: Apache-2.0
# Builds floe._native (cffi, API mode) against include/floe.h and the built
# libfloe.a of the source tree (FLOE_BUILD_DIR, default ../build/release,
# else ../build/dev); see README.md.
from setuptools import setup

setup(cffi_modules=["floe/_build.py:ffibuilder"])
