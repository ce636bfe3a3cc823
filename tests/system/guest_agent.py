"""The test agent inside the system-test VM: runs the host's commands as root.

It reads one JSON request a line from a virtio-serial port and answers each
with one JSON line::

    {"id": 7, "argv": ["systemctl", "is-active", "x"], "timeout": 60}
    {"id": 7, "rc": 0, "stdout": "active\\n", "stderr": ""}

``"stdin"`` (text) is fed to the command; with ``"binary": true`` stdout comes
back base64-encoded (a framebuffer read back). A command that outlives its
timeout is killed and answered with ``rc`` -9. Only the Python standard
library: it runs on the VM's own Python before anything is installed.

It is part of the VM image only (never of the appliance): a systemd unit in
the image starts it at boot, as root, because the checks need root (journal,
systemctl, kill, /dev/fb0).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time


def run(request: dict) -> dict:
    try:
        result = subprocess.run(
            request["argv"],
            input=request.get("stdin", "").encode(),
            capture_output=True,
            timeout=request.get("timeout", 120),
            check=False,
        )
    except subprocess.TimeoutExpired as expired:
        return {"rc": -9, "stdout": "", "stderr": f"timed out: {expired}"}
    except OSError as error:
        return {"rc": -2, "stdout": "", "stderr": str(error)}
    if request.get("binary"):
        stdout = base64.b64encode(result.stdout).decode()
    else:
        stdout = result.stdout.decode(errors="replace")
    return {
        "rc": result.returncode,
        "stdout": stdout,
        "stderr": result.stderr.decode(errors="replace"),
    }


def main(port: str) -> None:
    while not os.path.exists(port):
        time.sleep(0.2)
    fd = os.open(port, os.O_RDWR)  # a virtio port opens once: one descriptor both ways
    pending = b""
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:  # the host side is not connected: wait for it
            time.sleep(0.1)
            continue
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            try:
                request = json.loads(line)
            except ValueError:
                continue  # a half line from before a reconnect
            answer = run(request)
            answer["id"] = request.get("id")
            data = json.dumps(answer).encode() + b"\n"
            while data:
                data = data[os.write(fd, data) :]


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/dev/virtio-ports/org.hanabi.agent")
