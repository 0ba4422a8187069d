"""The processes a run starts and kills: the service's (gunicorn, Celery workers and beat, the SMTP
listener) and a broker of its own (Redis or a RabbitMQ node), each in a process group of its own."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from bench.load.plan import ROOT, free_port, wait_closed, wait_port


class Proc:
    """One process of the deployment, started again after a kill."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log: Path, port: int | None = None):
        self.name, self.argv, self.env, self.log, self.port = name, argv, env, log, port
        self.popen: subprocess.Popen[bytes] | None = None
        self.rss: list[int] = []  # kB, sampled
        self.cpu_done = 0.0  # CPU seconds of its earlier runs (before a kill), children included
        self.cpu_now = 0.0  # of the running one, as last sampled
        self.more: Callable[[], list[int]] | None = None  # processes of its own outside its tree

    def start(self) -> None:
        out = self.log.open("ab")
        self.popen = subprocess.Popen(
            self.argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        if self.port:
            wait_port(self.port)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        self.sample_cpu()  # what it spent until now is kept; a restart counts from zero
        self.cpu_done += self.cpu_now
        self.cpu_now = 0.0
        if self.popen is not None and self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)
            try:
                self.popen.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.popen.pid, signal.SIGKILL)
                self.popen.wait()

    def pids(self) -> list[int]:
        """The process and its children (gunicorn's workers)."""
        if self.popen is None or self.popen.poll() is not None:
            return []
        out = [self.popen.pid]
        children = Path(f"/proc/{self.popen.pid}/task/{self.popen.pid}/children")
        if children.exists():
            out += [int(p) for p in children.read_text().split()]
        return out

    def sample_cpu(self) -> None:
        """The CPU time of the process and its children so far (user and system, of the ones
        alive and of those it has reaped), from /proc."""
        if self.popen is None or self.popen.poll() is not None:
            return
        found, pending = [], [self.popen.pid, *(self.more() if self.more else [])]
        while pending:  # the whole tree: a RabbitMQ node runs a few processes below its wrapper
            pid = pending.pop()
            found.append(pid)
            with contextlib.suppress(OSError):
                pending += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        self.cpu_now = max(self.cpu_now, sum(cpu_seconds(pid) for pid in set(found)))

    def cpu(self) -> float:
        return self.cpu_done + self.cpu_now

    def sample(self) -> None:
        self.sample_cpu()
        total = 0
        for pid in self.pids():
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            except OSError:
                pass
        if total:
            self.rss.append(total)


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime + cutime + cstime of a process (fields 14-17 of /proc/<pid>/stat)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()  # after the command's name, which may hold spaces
    return sum(int(f) for f in fields[11:15]) / TICKS


class Broker:
    url: str
    proc: Proc

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def accepts(self) -> bool:
        """Whether the broker takes a client now: a whole protocol handshake, not an open port
        (a RabbitMQ node opens its port seconds before it lets anyone in)."""
        from kombu import Connection

        try:
            with Connection(self.url, connect_timeout=2) as conn:
                conn.ensure_connection(max_retries=0)
                conn.default_channel  # noqa: B018  (the channel opens the AMQP session)
            return True
        except Exception:
            return False

    def restart(self, down: float) -> float:
        """Stop the broker, keep it down ``down`` seconds, start it and wait until it accepts
        clients again; the real time it was unavailable, in seconds."""
        stopped = time.time()
        self.stop()
        time.sleep(down)
        self.start()
        end = time.monotonic() + 120
        while not self.accepts():
            if time.monotonic() > end:
                raise RuntimeError(
                    f"the restarted broker takes no client 120 s after it was started: {self.url}"
                )
            time.sleep(0.2)
        return time.time() - stopped


class RedisBroker(Broker):
    def __init__(self, work: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        # as deploy/compose.yaml runs it: with its append-only file, a restart keeps the queue
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        argv += ["--appendonly", "yes"]
        self.proc = Proc(
            "redis", [*argv, "--dir", str(work)], dict(os.environ), work / "redis.log", self.port
        )

    def start(self) -> None:
        self.proc.start()

    def stop(self) -> None:
        self.proc.kill(signal.SIGTERM)


class RabbitBroker(Broker):
    """A RabbitMQ node of the bench's own (its port, its files), as Debian's package runs it."""

    def __init__(self, work: Path):
        self.port = free_port()
        self.url = f"amqp://guest:guest@127.0.0.1:{self.port}//"
        home = work / "rabbitmq"
        work.chmod(0o755)  # Debian's rabbitmq-server runs as the rabbitmq user
        for sub in ("mnesia", "log"):
            (home / sub).mkdir(parents=True, exist_ok=True)
        (home / "enabled_plugins").write_text("[].\n")
        (home / "rabbitmq.conf").write_text(f"listeners.tcp.local = 127.0.0.1:{self.port}\n")
        subprocess.run(["chown", "-R", "rabbitmq:rabbitmq", str(home)], check=False)
        env = dict(os.environ)
        env.update(
            HOME=str(home),
            RABBITMQ_NODENAME=f"wlload{self.port}@localhost",
            RABBITMQ_NODE_PORT=str(self.port),
            RABBITMQ_DIST_PORT=str(free_port()),
            RABBITMQ_CONFIG_FILE=str(home / "rabbitmq.conf"),
            RABBITMQ_MNESIA_BASE=str(home / "mnesia"),
            RABBITMQ_LOG_BASE=str(home / "log"),
            RABBITMQ_ENABLED_PLUGINS_FILE=str(home / "enabled_plugins"),
            RABBITMQ_FEATURE_FLAGS_FILE=str(home / "feature_flags"),
            RABBITMQ_PID_FILE=str(home / "pid"),
            ERL_CRASH_DUMP=str(home / "erl_crash.dump"),
        )
        self.node = env["RABBITMQ_NODENAME"]
        self.proc = Proc("rabbitmq", ["rabbitmq-server"], env, work / "rabbitmq.log")
        self.proc.more = self._node_pids  # the node runs in a session of its own (see stop)

    def start(self) -> None:
        self.proc.start()
        wait_port(self.port, 90)

    def stop(self) -> None:
        """The node stopped for good.  Debian's ``rabbitmq-server`` runs it as the rabbitmq user
        in a session of its own, which a signal to the wrapper's group does not reach: left
        running, the node kept its port, so a "restart" found the old node still there (the
        new one died on its taken distribution port) and every run left a node behind.  The
        node's processes are found by the node name in their environment."""
        self.proc.kill(signal.SIGTERM)
        pids = self._node_pids()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        while pids and time.monotonic() < deadline:
            pids = [p for p in pids if Path(f"/proc/{p}").exists()]
            time.sleep(0.2)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        wait_closed(self.port, 30)

    def _node_pids(self) -> list[int]:
        wanted = f"RABBITMQ_NODENAME={self.node}".encode()
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if wanted in (entry / "environ").read_bytes().split(b"\0"):
                        found.append(int(entry.name))
        return found
