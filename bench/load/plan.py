"""What a run is asked to do (``Plan``, from the command line) and the ports it waits on."""

from __future__ import annotations

import argparse
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
BIN = Path(PY).parent
DOMAIN = "lotus.load.invalid"  # the reply domain: nothing leaves loopback
WEBHOOK = ("load", "bench-secret")


@dataclass
class Plan:
    games: int = 2000
    rate: float = 50.0  # replies per second
    duration: float = 300.0  # seconds of load
    kill_every: float = 20.0
    broker: str = "redis"
    drain: float = 360.0  # at most, after the load: the sweeps run every minute
    duplicates: float = 0.03
    stale: float = 0.03
    strangers: float = 0.02
    seed: int = 16
    workers: int = 3
    kills: int | None = None  # at most (the short version: one)
    # the short version: the load goes on past ``duration`` (up to ``longest``) until every kind
    # of reply was sent once, so that a machine slowed to a crawl still runs the whole scenario
    each_kind: bool = False
    longest: float = 0.0

    @classmethod
    def short(cls) -> Plan:
        # few enough games that a seat is asked again within the run even at 1.6 replies/s (a
        # busy CI machine): a stale reply needs a seat put a newer decision since its answer
        return cls(
            games=20,
            rate=20.0,
            duration=40.0,
            kill_every=15.0,
            kills=1,
            drain=300.0,
            each_kind=True,
            longest=240.0,
        )


def parse(argv: list[str]) -> Plan:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=(sys.modules["bench.load"].__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--short", action="store_true", help="the CI version: 20 games, 40 s of load")
    parser.add_argument("--games", type=int)
    parser.add_argument("--rate", type=float, help="replies per second")
    parser.add_argument("--duration", type=float, help="seconds of load")
    parser.add_argument("--kill-every", type=float, help="seconds between worker kills")
    parser.add_argument("--broker", choices=("redis", "rabbitmq"), default="redis")
    parser.add_argument("--drain", type=float, help="most seconds to wait for the service to catch up")
    args = parser.parse_args(argv)
    plan = Plan.short() if args.short else Plan()
    for name in ("games", "rate", "duration", "kill_every", "drain"):
        if getattr(args, name) is not None:
            setattr(plan, name, getattr(args, name))
    plan.broker = args.broker
    return plan


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing answers on 127.0.0.1:{port} after {seconds:.0f} s")


def wait_closed(port: int, seconds: float = 30.0) -> None:
    """Until nothing answers on the port (a stopped broker has let it go)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) != 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"127.0.0.1:{port} still answers {seconds:.0f} s after its broker was stopped")
