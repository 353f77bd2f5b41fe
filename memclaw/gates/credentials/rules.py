"""Shape rules: credentials recognised by their own form (vendor prefixes, JWTs, PEM blocks,
webhook URLs, ``Authorization`` headers, passwords stated in prose).

A fixed prefix is strong evidence, so the body after it only has to look non-wordy.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memclaw.gates.credentials.values import (
    Candidate,
    find_all,
    is_non_value,
    is_placeholder,
    looks_random,
    passwordish,
    prefixed_body_ok,
)
from memclaw.gates.lazy_re import LazyPattern

__all__ = ["Rule", "rule_candidates", "run_rules"]

_Validator = Callable[[re.Match[str], str], bool]


@dataclass(frozen=True)
class Rule:
    """One regex. ``group`` is the part to redact.

    Speed matters (this runs before every memory write), and Python's ``re`` only skips
    ahead quickly when a pattern starts with a literal. So patterns start with their literal
    prefix and put the word-boundary check in a look-behind *after* it. Rules that start
    with a case-insensitive word instead list ``anchors``: the lower-cased text is searched
    with ``str.find`` and the pattern is only tried at those offsets. ``hints`` skip a rule
    entirely when none of them occurs in the lower-cased text.
    """

    kind: str
    priority: int
    pattern: LazyPattern
    group: int | str = 0
    validate: _Validator | None = None
    anchors: tuple[str, ...] = ()
    hints: tuple[str, ...] = ()


def _named_scheme_credential(m: re.Match[str]) -> bool:
    """``Authorization: Bearer dev-token-Lynx-2291``: behind a named scheme, a value that
    mixes letters and digits is the credential even when it is short or made of words
    ("Bearer followed by the token" stays prose)."""
    v = m.group("v")
    if not re.search(r"(?i)(?:bearer|basic|token|digest)\s+\Z", m.string[m.start() : m.start("v")]):
        return False
    if is_placeholder(v) or is_non_value(v):
        return False
    return any(c.isdigit() for c in v) and any(c.isalpha() for c in v)


def _body_ok(group: str, min_alnum: int = 20) -> _Validator:
    def check(m: re.Match[str], _text: str) -> bool:
        return prefixed_body_ok(m.group(group), min_alnum)

    return check


def _random_ok(group: str, min_len: int, min_random: int) -> _Validator:
    def check(m: re.Match[str], _text: str) -> bool:
        return looks_random(m.group(group), min_len, min_random)

    return check


def _real_value(group: str) -> _Validator:
    def check(m: re.Match[str], _text: str) -> bool:
        value = m.group(group)
        return not is_placeholder(value) and not is_non_value(value)

    return check


def _prose_password_ok(m: re.Match[str], _text: str) -> bool:
    raw = m.group("value")
    if raw[:1] in "\"'`":
        return not is_placeholder(raw[1:-1]) and not is_non_value(raw[1:-1])
    return passwordish(raw) and not is_placeholder(raw)


def _telegram_ok(m: re.Match[str], text: str) -> bool:
    # The pattern starts at the colon (fast literal scan); confirm the 8-10 digit bot id here.
    s = m.start()
    if not re.search(r"(?<![\w:])\d{8,10}\Z", text[max(0, s - 11) : s]):
        return False
    return prefixed_body_ok(m.group("b"), 20)


_B64_RUN_RE = LazyPattern(r"[A-Za-z0-9+/=]{16,}")


def _pem_body_ok(block: str) -> bool:
    # "-----BEGIN PRIVATE KEY-----\nXXXX\n-----END..." and "key omitted" are documentation.
    body = block.split("-----", 2)[-1]
    return any(looks_random(run, 16, 12) for run in _B64_RUN_RE.findall(body))


def _in_url(m: re.Match[str], text: str) -> bool:
    s = m.start()
    word_start = max(text.rfind(c, 0, s) for c in " \t\n\"'<(")
    return "://" in text[word_start + 1 : s]


_T = r"A-Za-z0-9_\-"  # token characters


def _lb(prefix: str) -> str:
    """Look-behind placed after a literal prefix: no token character right before it."""
    return rf"(?<![{_T}]{prefix})"


_RULES: tuple[Rule, ...] = (
    Rule(
        "private_key",
        100,
        LazyPattern(
            r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
            # Truncated paste without an END line: take the base64 body that follows.
            r"|(?:(?:\\n|\s)+[A-Za-z0-9+/=:,\- ]{8,})*)"
        ),
        validate=lambda m, _t: _pem_body_ok(m.group()),
        hints=("private key",),
    ),
    Rule(
        "jwt",
        90,
        LazyPattern(rf"eyJ{_lb('eyJ')}[{_T}]{{10,}}\.eyJ[{_T}]{{10,}}\.[{_T}]*"),
        hints=("eyj",),
    ),
    Rule(
        "anthropic_key",
        90,
        LazyPattern(rf"sk-ant-{_lb('sk-ant-')}(?:[a-z]{{3,6}}\d{{2}}-)?(?P<b>[{_T}]{{20,}})"),
        validate=_body_ok("b"),
        hints=("sk-ant-",),
    ),
    Rule(
        "openai_key",
        85,
        LazyPattern(rf"sk-{_lb('sk-')}(?:proj-|svcacct-|admin-|None-)?(?P<b>[{_T}]{{20,}})"),
        validate=_body_ok("b"),
        hints=("sk-",),
    ),
    Rule(
        "mem0_key",
        85,
        LazyPattern(rf"m0-{_lb('m0-')}(?P<b>[{_T}]{{20,}})"),
        validate=_body_ok("b"),
        hints=("m0-",),
    ),
    Rule(
        "github_token",
        90,
        LazyPattern(
            rf"gh[pousr]_{_lb('gh[pousr]_')}(?P<b>[A-Za-z0-9]{{30,255}})(?![{_T}])"
            rf"|github_pat_{_lb('github_pat_')}[A-Za-z0-9_]{{40,}}"
        ),
        validate=lambda m, _t: m.group("b") is None or prefixed_body_ok(m.group("b")),
        hints=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    Rule(
        "gitlab_token",
        90,
        LazyPattern(rf"gl{_lb('gl')}(?:pat|dt|rt|ptt)-[A-Za-z0-9_\-]{{20,}}"),
        hints=("glpat-", "gldt-", "glrt-", "glptt-"),
    ),
    Rule(
        "aws_access_key_id",
        90,
        LazyPattern(r"A(?<![A-Za-z0-9]A)(?:KIA|SIA)[A-Z0-9]{16}(?![A-Za-z0-9])"),
        hints=("akia", "asia"),
    ),
    Rule(
        "aws_secret_key",
        95,
        LazyPattern(
            r"aws_?secret_?(?:access_?)?key[\"']?\s*(?:=|:|=>)\s*[\"']?"
            r"(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
            re.I,
        ),
        group="v",
        anchors=("aws",),
    ),
    Rule(
        "google_api_key",
        90,
        LazyPattern(rf"AIza{_lb('AIza')}[0-9A-Za-z_\-]{{35}}(?![{_T}])"),
        hints=("aiza",),
    ),
    Rule(
        "stripe_key",
        90,
        LazyPattern(
            rf"[srp]k_{_lb('[srp]k_')}(?:live|test)_[0-9A-Za-z]{{16,}}(?![{_T}])"
            rf"|whsec_{_lb('whsec_')}[A-Za-z0-9]{{24,}}(?![{_T}])"
        ),
        hints=("_live_", "_test_", "whsec_"),
    ),
    Rule(
        "slack_token",
        90,
        LazyPattern(rf"x{_lb('x')}(?:ox[baprse]|app)-[A-Za-z0-9\-]{{10,}}"),
        validate=lambda m, _t: any(c.isdigit() for c in m.group()),
        hints=("xox", "xapp-"),
    ),
    Rule(
        "huggingface_token",
        85,
        LazyPattern(rf"hf_{_lb('hf_')}(?P<b>[A-Za-z0-9]{{30,}})(?![{_T}])"),
        validate=_random_ok("b", 30, 16),
        hints=("hf_",),
    ),
    Rule(
        "npm_token",
        85,
        LazyPattern(rf"npm_{_lb('npm_')}(?P<b>[A-Za-z0-9]{{36}})(?![{_T}])"),
        validate=_body_ok("b"),
        hints=("npm_",),
    ),
    Rule(
        "pypi_token",
        90,
        LazyPattern(rf"pypi-AgE{_lb('pypi-AgE')}[{_T}]{{40,}}"),
        hints=("pypi-",),
    ),
    Rule(
        "sendgrid_key",
        90,
        LazyPattern(rf"SG\.{_lb('SG.')}[{_T}]{{16,32}}\.[{_T}]{{30,64}}(?![{_T}])"),
        hints=("sg.",),
    ),
    Rule(
        "ak_key",
        80,
        LazyPattern(rf"ak_{_lb('ak_')}(?P<b>[{_T}]{{16,}})(?![{_T}])"),
        validate=_body_ok("b", 16),
        hints=("ak_",),
    ),
    Rule(
        "bot_token",
        85,
        # Telegram "<bot id>:<35 chars>" (34 and 36 occur too). Only the part after the colon
        # is secret; the bot id is public, so it stays readable in the redacted text.
        LazyPattern(rf":(?<=\d{{8}}:)(?P<b>[{_T}]{{34,36}})(?![\w\-])"),
        group="b",
        validate=_telegram_ok,
    ),
    Rule(
        "bot_token",
        85,
        # Discord: base64 user id . timestamp . HMAC.
        LazyPattern(
            r"[MNO](?<![\w.\-][MNO])(?P<b>[A-Za-z0-9_\-]{23,27})\.[A-Za-z0-9_\-]{6}"
            r"\.[A-Za-z0-9_\-]{27,40}(?![\w.\-])"
        ),
        validate=_body_ok("b", 20),
    ),
    Rule(
        "webhook_url",
        95,
        LazyPattern(r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<v>[A-Za-z0-9_/\-]{10,})"),
        group="v",
        hints=("hooks.slack.com",),
    ),
    Rule(
        "webhook_url",
        95,
        LazyPattern(r"discord(?:app)?\.com/api/webhooks/(?P<v>\d{5,}/[A-Za-z0-9_\-]{20,})"),
        group="v",
        hints=("/api/webhooks/",),
    ),
    Rule(
        "webhook_url",
        95,
        LazyPattern(r"webhook\.office\.com/(?P<v>[^\s\"'<>]{20,})"),
        group="v",
        hints=("webhook.office.com",),
    ),
    Rule(
        "webhook_url",
        70,
        # Any other service: a random-looking path segment after /hooks/ or /webhook(s)/.
        LazyPattern(r"/(?:hooks?|webhooks?)/(?P<v>[^\s?#\"'<>)]{16,})"),
        group="v",
        validate=lambda m, t: _in_url(m, t)
        and any(looks_random(seg, 16, 12) for seg in m.group("v").split("/")),
        hints=("hook",),
    ),
    Rule(
        "url_password",
        88,
        # scheme://user:password@host, any scheme (redis, amqp, mongodb+srv, https ...): the
        # scheme is implied by the literal "://". Any length: "postgres://admin:pw@db" is real.
        # A "#" before the "@" is the password's, as people type it, not a fragment.
        LazyPattern(r"://[^\s:/@?#\[\]]*:(?P<v>[^\s/@?]+)@(?=[\w.\-\[])"),
        group="v",
        validate=_real_value("v"),
        hints=("://",),
    ),
    Rule(
        "url_token",
        75,
        LazyPattern(
            r"[?&;](?i:access_token|id_token|refresh_token|token|api_?key|apikey|key|sig"
            r"|signature|secret|client_secret|auth|password|pwd|x-amz-signature"
            r"|x-amz-security-token|code)=(?P<v>[^&\s#\"'<>]{16,})"
        ),
        group="v",
        validate=lambda m, _t: (
            looks_random(m.group("v"), 16, 12) or prefixed_body_ok(m.group("v"), 16)
        ),
        hints=("=",),
    ),
    Rule(
        "bearer_token",
        80,
        LazyPattern(
            r"\b(?:authorization\b[\"']?\s*[:=]\s*[\"']?(?:bearer|basic|token|bot|digest)?\s*"
            r"|bearer\s+)(?P<v>[A-Za-z0-9\-._~+/]{8,}=*)",
            re.I,
        ),
        group="v",
        validate=lambda m, _t: (
            prefixed_body_ok(m.group("v"), 12)
            or looks_random(m.group("v"), 12, 8)
            or _named_scheme_credential(m)
        ),
        anchors=("authorization", "bearer"),
    ),
    Rule(
        "pairing_code",
        70,
        LazyPattern(
            r"\b(?:pairing|verification|one[- ]time|otp|2fa|mfa|recovery|backup|invite"
            r"|parnings|verifierings|återställnings)[ _\-]?(?:code|kod(?:en)?)s?"
            r"\s*(?::|=|\bis\b|\bär\b)\s*[\"'`]?(?P<v>[A-Za-z0-9]{3,}(?:-[A-Za-z0-9]{3,})*)",
            re.I,
        ),
        group="v",
        validate=lambda m, _t: any(c.isdigit() for c in m.group("v")) or m.group("v").isupper(),
        anchors=(
            "pairing", "verification", "one-time", "one time", "otp", "2fa", "mfa", "recovery",
            "backup", "invite", "parnings", "verifierings", "återställnings",
        ),
    ),
    Rule(
        "password",
        60,
        # Prose: "the wifi password is hunter2", "lösenordet är Vinter2025".
        LazyPattern(
            r"\b(?:password|passwd|passphrase|lösenord(?:et)?|passordet|pin(?:[- ]?code)?"
            r"|pinkod(?:en)?)\s+(?:is|was|är|var|is now|är nu|set to|satt till)\s+"
            r"(?P<value>\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|[^\s\"'`]+?)(?=[.,;:!?)\]]*(?:\s|$))",
            re.I,
        ),
        group="value",
        validate=_prose_password_ok,
        anchors=("password", "passwd", "passphrase", "lösenord", "passord", "pin"),
    ),
    Rule(
        "password",
        60,
        # SQL / CLI: WITH PASSWORD 'x'
        LazyPattern(r"\bpassword\s+(?P<value>'[^'\n]+'|\"[^\"\n]+\")", re.I),
        group="value",
        validate=_prose_password_ok,
        anchors=("password",),
    ),
    Rule(
        "password",
        60,
        LazyPattern(r"(?:密码|密碼|口令|密钥|密鑰)(?:是|为|為|：|:)\s*(?P<value>[!-~]{4,})"),
        group="value",
        validate=_real_value("value"),
        anchors=("密码", "密碼", "口令", "密钥", "密鑰"),
    ),
)  # fmt: skip


def rule_candidates(text: str, lower: str) -> list[Candidate]:
    return run_rules(_RULES, text, lower)


def run_rules(rules: tuple[Rule, ...], text: str, lower: str) -> list[Candidate]:
    """Candidates from every rule in ``rules`` (shared by the other rule modules)."""
    out: list[Candidate] = []
    # str.lower() can change the length of some non-ASCII strings; offsets found in `lower`
    # are then useless and anchored rules fall back to a full scan.
    aligned = len(lower) == len(text)
    for rule in rules:
        if rule.hints and not any(h in lower for h in rule.hints):
            continue
        if rule.anchors and aligned:
            matches: list[re.Match[str]] = []
            for anchor in rule.anchors:
                for pos in find_all(lower, anchor):
                    m = rule.pattern.match(text, pos)
                    if m:
                        matches.append(m)
        else:
            matches = list(rule.pattern.finditer(text))
        for m in matches:
            if rule.validate is not None and not rule.validate(m, text):
                continue
            s, e = m.span(rule.group)
            if e > s:
                out.append((s, e, rule.kind, rule.priority))
    return out
