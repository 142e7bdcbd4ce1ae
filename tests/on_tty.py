# SPDX-License-Identifier: Apache-2.0
# Run argv with stderr on a pseudo-terminal and stdout on a pipe; print
# "RC:<status>", "STDOUT:<repr>" and "TTY:<repr of what reached the
# terminal>" for the shell tests' checks (progress lines appear only on a
# terminal).
import os, pty, subprocess, sys
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
os.close(slave)
tty = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    tty += chunk
out = p.stdout.read()
rc = p.wait()
sys.stdout.write("RC:%d\nSTDOUT:%r\nTTY:%r\n" % (rc, out.decode(), tty.decode()))
