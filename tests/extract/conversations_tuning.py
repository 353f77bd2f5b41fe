"""Whole conversations the extraction changes were tuned on (see conversations_heldout.py)."""

from __future__ import annotations

from extract.conversations import Conversation, filler, stamp, talk, w

GH = "ghp_" + "Zt5Kq1Lm9Nx3Rv7Bc2Yd8Hs4Jf6Pa0We1Uo"


def _issue_example() -> Conversation:
    # The issue's 57-message conversation: name, rule and decision at the start.
    start = talk(
        "Hi, I'm Dana Okafor, a data engineer at Northwind Labs. I'm based in Lisbon and "
        "I'm in the WET timezone.",
        "Hello Dana.",
        "Never deploy on Fridays. Reason: our on-call rotation is thin at weekends.",
        "Understood.",
        "We decided to use Airflow over Dagster because the team already knows it.",
        "Noted.",
    )
    end = talk(
        f"the token for the staging bot is {GH} https://bots.example.com/hook",
        "Configured the staging bot.",
        "When I paste a traceback, just give me the fix.",
        "Will do.",
        "I can't hike for a while because I hurt my knee.",
        "Sorry to hear that.",
    )
    messages = start + filler(101, 22) + end + filler(102, 1)
    return Conversation(
        "tune-issue-57",
        tuple(messages[:57]),
        (
            w("identity", "Dana Okafor", "data engineer", "Northwind Labs"),
            w("rule", "Friday", "on-call"),
            w("decision", "Airflow", "knows"),
            w("configuration", "token", "staging bot"),
            w("preference", "traceback", "fix"),
        ),
        also=(w("project", "hike"), w("identity", "knee")),
        person="Dana",
        secrets=(GH, "is https", "bots.example.com"),
    )


def _demo_like() -> Conversation:
    # Like the demo's session of 2026-11-28 (a Saturday): Monday is 2026-11-30.
    messages = (
        talk(
            "Other news: Hanna starts Monday, she joins the routing team",
            "Welcome Hanna.",
            "Yesterday we chose Procrastinate over Celery for the recompute jobs",
            "Noted.",
        )
        + filler(111, 30)
        + talk("my colleague Jonas Lind leads the routing team", "Got it.")
    )
    return Conversation(
        "tune-demo-dated",
        tuple(messages),
        (
            w("relationship", "Hanna", "2026-11-30"),
            w("decision", "Procrastinate", "2026-11-27"),
            w("relationship", "Jonas Lind", "routing"),
        ),
        session_id="20261128-101500-ab12",
        forbid=("2026-12-10", "2026-12-14", "2026-12-07"),
    )


def _timestamps() -> Conversation:
    messages = (
        filler(121, 20)
        + talk(
            "tomorrow I'm presenting the migration plan to the board",
            "Good luck.",
            "my teammate Aiko Sato handles the Kubernetes clusters",
            "Noted.",
        )
        + filler(122, 20)
        + talk("we use Rust for the ingest service and Go for the APIs", "Nice.")
    )
    stamp(messages, "2026-09-02T10:00:00+02:00", "timestamp")
    return Conversation(
        "tune-timestamps",
        tuple(messages),
        (
            w("project", "board", "2026-09-03"),
            w("relationship", "Aiko Sato", "Kubernetes"),
            w("technical", "Rust", "Go"),
        ),
        forbid=("2026-12-10", "2026-12-11"),
    )


def _named_profile() -> Conversation:
    messages = (
        talk(
            "from now on, always give me the shell command first, I copy-paste a lot",
            "Sure.",
        )
        + filler(131, 30)
        + talk(
            "we switched the docs site from Sphinx to MkDocs since nobody liked rst",
            "Okay.",
        )
        + filler(132, 4)
    )
    return Conversation(
        "tune-named-profile",
        tuple(messages),
        (
            w("rule", "shell command", "copy"),
            w("decision", "MkDocs", "rst"),
        ),
        person="Lena",
        profile="# Profile\n\n## Identity\n\n- Lena Vogt is a site reliability engineer.\n",
    )


CONVERSATIONS_TUNING: list[Conversation] = [
    _issue_example(),
    _demo_like(),
    _timestamps(),
    _named_profile(),
]
