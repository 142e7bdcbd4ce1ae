# SPDX-License-Identifier: Apache-2.0
# Independent SigV4 signer for test_sigv4: Debian's python3-botocore (AWS's
# Python SDK core). Reads one JSON request per line on stdin:
#   {"method", "host", "path" (decoded), "query": [[name, value]...] (decoded),
#    "headers": {name: value}, "payload", "date", "region", "ak", "sk"}
# The URL is encoded here with urllib (independently of floe's encoder).
# and prints one JSON line per request: canonical_request, string_to_sign,
# signature. Run with /usr/bin/python3.
import json
import sys
from urllib.parse import quote

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

for line in sys.stdin:
    if not line.strip():
        continue
    q = json.loads(line)
    creds = Credentials(q["ak"], q["sk"], q.get("token"))
    auth = S3SigV4Auth(creds, "s3", q["region"])
    url = "http://" + q["host"] + quote(q["path"], safe="/~")
    if q["query"]:
        url += "?" + "&".join(quote(k, safe="~") + "=" + quote(v, safe="~") for k, v in q["query"])
    headers = {k: v for k, v in q["headers"].items() if k.lower() != "x-amz-content-sha256"}
    headers["Host"] = q["host"]
    req = AWSRequest(method=q["method"], url=url, headers=headers, data=b"")
    req.headers["X-Amz-Content-SHA256"] = q["payload"]
    req.context["timestamp"] = q["date"]
    cr = auth.canonical_request(req)
    sts = auth.string_to_sign(req, cr)
    sig = auth.signature(sts, req)
    print(json.dumps({"canonical_request": cr, "string_to_sign": sts, "signature": sig}))
    sys.stdout.flush()
