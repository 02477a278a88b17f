"""A throwaway PostgreSQL: install if missing, start in a temp folder on a free port.

Used by the server's scale-out tests and handy by hand::

    python scripts/throwaway_postgres.py          # prints the URL; Ctrl-C stops and deletes it
    rummy serve --db "$(that URL)" --port 8001    # two servers on one database

As root (CI, these machines) it installs Debian's ``postgresql`` with apt-get when no
``initdb`` is found, and runs the cluster as the ``postgres`` user; as another user it uses
the ``initdb`` it finds and runs as that user. The cluster trusts local connections on
127.0.0.1 only and runs with ``fsync=off``: it is for tests, and it is deleted on stop.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["Cluster", "find_bin", "install"]

LOCK = Path(tempfile.gettempdir()) / "openrummy-postgres-install.lock"


def find_bin() -> Path | None:
    """The bin folder of the newest installed PostgreSQL server, if any."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def install() -> Path:
    """Find PostgreSQL, installing it with apt-get (as root) if needed; raises if impossible."""
    bin_dir = find_bin()
    if bin_dir is not None:
        return bin_dir
    if os.geteuid() != 0:
        raise RuntimeError(
            "PostgreSQL is not installed and this is not root: apt-get install -y postgresql"
        )
    # Parallel test workers must not run apt-get at the same time.
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        bin_dir = find_bin()
        if bin_dir is None:
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            for cmd in (
                ["apt-get", "update"],
                ["apt-get", "install", "-y", "--no-install-recommends", "postgresql"],
            ):
                done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
                if done.returncode != 0:
                    raise RuntimeError(
                        f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout[-2000:]}"
                        f"{done.stderr[-2000:]}"
                    )
            bin_dir = find_bin()
    if bin_dir is None:
        raise RuntimeError("apt-get installed postgresql but no initdb was found")
    return bin_dir


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """One throwaway cluster: ``start()``, ``url``, ``stop()`` (which deletes it)."""

    def __init__(self) -> None:
        self.bin = install()
        self.port = _free_port()
        self.root = Path(tempfile.mkdtemp(prefix="openrummy-pg-"))
        self.data = self.root / "data"
        self.as_postgres = os.geteuid() == 0
        self.started = False

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self.as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(
                f"{' '.join(args)} failed ({done.returncode}): {done.stdout}{done.stderr}{tail}"
            )

    def start(self) -> str:
        if self.as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c max_connections=200"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        )
        self.started = True
        return self.url

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def database_url(self, name: str) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self.started:
            with contextlib.suppress(RuntimeError):
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
            self.started = False
        shutil.rmtree(self.root, ignore_errors=True)


def main() -> int:
    cluster = Cluster()
    try:
        print(cluster.start(), flush=True)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
