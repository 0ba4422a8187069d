"""The deployment files (deploy/) agree with the code: no Docker or systemd runs here, so the
files are parsed and checked against the modules and settings they name."""

from __future__ import annotations

import configparser
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SETTINGS = ROOT / "whitelotus" / "settings.py"
VENV_BIN = "/srv/whitelotus/app/.venv/bin/"


def compose() -> dict[str, Any]:
    data = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def command(service: dict[str, Any]) -> list[str]:
    value = service["command"]
    return value.split() if isinstance(value, str) else [str(v) for v in value]


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd keys are case-sensitive
    parser.read_string((DEPLOY / "systemd" / name).read_text())
    return parser


def settings_names() -> set[str]:
    """Every variable settings.py reads by name, plus ANYMAIL_ for the prefix it collects."""
    text = SETTINGS.read_text()
    names = set(re.findall(r"\benv(?:_bool|_list)?\(\s*\"([A-Z][A-Z0-9_]*)\"", text))
    names |= set(re.findall(r"os\.environ(?:\.get)?[\[(]\s*\"([A-Z][A-Z0-9_]*)\"", text))
    names |= set(re.findall(r"os\.getenv\(\s*\"([A-Z][A-Z0-9_]*)\"", text))
    if re.search(r"startswith\(\"ANYMAIL_\"\)", text):
        names.add("ANYMAIL_")
    return names


def example_names() -> list[tuple[str, int]]:
    """The variables of .env.example (set, or optional as ``#NAME=``) with their line index."""
    lines = (DEPLOY / ".env.example").read_text().splitlines()
    return [(m[1], i) for i, line in enumerate(lines) if (m := re.match(r"#?([A-Z][A-Z0-9_]*)=", line))]


def test_compose_has_the_six_services_on_one_env_file():
    services = compose()["services"]
    assert set(services) == {"web", "worker", "worker-moves", "beat", "postgres", "redis"}
    for name in ("web", "worker", "worker-moves", "beat"):
        assert services[name]["env_file"] in (".env", [".env"])
        assert set(services[name]["depends_on"]) == {"postgres", "redis"}
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")


def test_compose_commands_name_the_right_modules():
    services = compose()["services"]
    web = command(services["web"])
    assert web[0] == "gunicorn" and web[1].split(":")[0] == "whitelotus.wsgi"
    assert command(services["worker"])[:4] == ["celery", "-A", "whitelotus", "worker"]
    assert command(services["beat"])[:4] == ["celery", "-A", "whitelotus", "beat"]
    assert command(services["worker-moves"])[:4] == ["celery", "-A", "whitelotus", "worker"]
    assert (ROOT / "whitelotus" / "wsgi.py").exists() and (ROOT / "whitelotus" / "celery.py").exists()


def test_compose_builds_from_a_dockerfile_that_exists():
    build = compose()["services"]["web"]["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == DEPLOY / "Dockerfile"


@pytest.mark.parametrize(
    ("name", "program", "words"),
    [
        ("whitelotus-web.service", "gunicorn", ["whitelotus.wsgi:application"]),
        ("whitelotus-worker.service", "celery", ["-A", "whitelotus", "worker"]),
        ("whitelotus-worker-moves.service", "celery", ["-A", "whitelotus", "worker"]),
        ("whitelotus-beat.service", "celery", ["-A", "whitelotus", "beat"]),
        ("whitelotus-smtpd.service", "python", ["manage.py", "smtpd"]),
        ("whitelotus-fetch-mail.service", "python", ["manage.py", "fetch_mail"]),
    ],
)
def test_systemd_units_start_the_venv_programs(name, program, words):
    parsed = unit(name)
    assert {"Unit", "Service", "Install"} <= set(parsed.sections())
    exec_start = parsed["Service"]["ExecStart"].split()
    assert exec_start[0] == VENV_BIN + program
    assert exec_start[1 : 1 + len(words)] == words
    assert parsed["Service"]["EnvironmentFile"] and parsed["Service"]["User"] == "whitelotus"
    assert parsed["Install"]["WantedBy"] == "multi-user.target"


def _queues_of(words: list[str]) -> set[str]:
    return set(words[words.index("-Q") + 1].split(",")) if "-Q" in words else set()


def test_the_deployments_serve_every_queue_and_keep_a_worker_for_moves_alone():
    """Every queue the settings declare has a worker in both deployments, and one worker takes
    moves alone (notifications/outbound/queues.py: a season start's invitations never stand before a
    reply)."""
    from django.conf import settings

    from notifications.outbound import queues

    declared = {q.name for q in settings.CELERY_TASK_QUEUES}
    services = compose()["services"]
    compose_workers = [_queues_of(command(services[n])) for n in ("worker", "worker-moves")]
    units = [
        _queues_of(unit(n)["Service"]["ExecStart"].split())
        for n in ("whitelotus-worker.service", "whitelotus-worker-moves.service")
    ]
    for workers in (compose_workers, units):
        assert set().union(*workers) == declared
        assert {queues.MOVES} in workers


def test_every_setting_variable_is_in_env_example_and_nothing_else():
    read = settings_names()
    documented = {name for name, _ in example_names()}
    assert {"DATABASE_URL", "SECRET_KEY", "SECURE_SSL_REDIRECT", "ANYMAIL_"} <= read  # the parse works
    undocumented = {n for n in read if n != "ANYMAIL_"} - documented
    assert not undocumented, f"read by settings.py, missing from deploy/.env.example: {undocumented}"
    if "ANYMAIL_" in read:
        assert any(n.startswith("ANYMAIL_") for n in documented)
    unknown = {
        n for n in documented if n not in read and not ("ANYMAIL_" in read and n.startswith("ANYMAIL_"))
    }
    assert not unknown, f"in deploy/.env.example but not read by settings.py: {unknown}"


def test_every_env_example_variable_has_its_comment_line():
    lines = (DEPLOY / ".env.example").read_text().splitlines()
    names = example_names()
    assert len({n for n, _ in names}) == len(names), "a variable is listed twice"
    for name, index in names:
        above = lines[index - 1] if index else ""
        assert above.startswith("# ") and len(above) > 4, f"{name} has no comment line above it"


def test_the_image_copies_every_package_the_project_installs():
    """``pip install .`` in the image finds only what was copied: a package left out (the
    notifications and leagues apps once were) makes an image whose workers cannot start."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = [p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]]
    copied = set(re.findall(r"^COPY (\S+) ", (DEPLOY / "Dockerfile").read_text(), re.MULTILINE))
    assert packages and not [p for p in packages if p not in copied]
    assert "manage.py" in (DEPLOY / "Dockerfile").read_text()


def test_the_mailbox_settings_step_changes_what_env_example_sets_and_adds_only_what_it_leaves_out():
    """deploy/README.md's step 2 of "Run from an ordinary mailbox": a variable .env.example sets
    already is shown as a line to change, never as one to add (a second line would win unseen),
    and the fetcher's unit restarts it as the same page says."""
    readme = (DEPLOY / "README.md").read_text()
    step = readme[readme.index("2. **Settings**") : readme.index("3. **Check it**")]
    change, add = re.findall(r"```\n(.*?)```", step, re.DOTALL)[:2]
    lines = (DEPLOY / ".env.example").read_text().splitlines()
    set_there = {m[1] for line in lines if (m := re.match(r"([A-Z][A-Z0-9_]*)=", line))}
    left_out = {m[1] for line in lines if (m := re.match(r"#([A-Z][A-Z0-9_]*)=", line))}
    to_change = set(re.findall(r"^\s*([A-Z][A-Z0-9_]*)=", change, re.MULTILINE))
    to_add = set(re.findall(r"^\s*([A-Z][A-Z0-9_]*)=", add, re.MULTILINE))
    assert to_change and to_change <= set_there, to_change - set_there
    assert to_add and to_add <= left_out, to_add - left_out
    assert unit("whitelotus-fetch-mail.service")["Service"]["Restart"] == "always"
    assert "(`Restart=always`)" in readme
