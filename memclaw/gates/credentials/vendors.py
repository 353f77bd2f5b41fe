"""More vendor shapes, and the reference prefixes at any length.

Each vendor below stamps its tokens with a fixed prefix, so the prefix plus a body of the
documented alphabet and length is enough evidence. The reference's own prefixes (``sk-``,
``sk-proj-``, ``sk-ant-``, ``m0-``, ``ak_``) are also caught when the tail is short: examples
such as ``sk-proj-abc123def456`` get pasted as real keys, and a prefix plus a short tail that
mixes letters and digits is never ordinary prose.
"""

from __future__ import annotations

import re

from memclaw.gates.credentials.rules import Rule, run_rules
from memclaw.gates.credentials.values import Candidate, prefixed_body_ok
from memclaw.gates.lazy_re import LazyPattern

__all__ = ["vendor_candidates"]

_T = r"A-Za-z0-9_\-"


def _lb(prefix: str) -> str:
    return rf"(?<![{_T}]{prefix})"


def _short_tail_ok(m: re.Match[str], _text: str) -> bool:
    # "sk-learn", "m0-style", "ak_ prefix" are words; "abc123def456" mixes letters and digits.
    tail = m.group("b")
    letters = sum(c.isalpha() for c in tail)
    digits = sum(c.isdigit() for c in tail)
    return letters >= 2 and digits >= 2 and "--" not in tail and "__" not in tail


def _body_ok(m: re.Match[str], _text: str) -> bool:
    groups = m.groupdict()
    body = groups.get("b") or groups.get("c") or ""
    return prefixed_body_ok(body, 16)


def _vendor(kind: str, pattern: str, hints: tuple[str, ...]) -> Rule:
    return Rule(kind, 88, LazyPattern(pattern), validate=_body_ok, hints=hints)


_RULES: tuple[Rule, ...] = (
    Rule(
        "api_key",
        82,
        # Short reference-style keys; the long forms have their own rules in credentials.rules.
        LazyPattern(
            rf"(?:sk-{_lb('sk-')}(?:proj-|ant-(?:[a-z]{{3,6}}\d{{2}}-)?|svcacct-|admin-)?"
            rf"|m0-{_lb('m0-')}|ak_{_lb('ak_')})(?P<b>[A-Za-z0-9]{{8,19}})(?![{_T}])"
        ),
        validate=_short_tail_ok,
        hints=("sk-", "m0-", "ak_"),
    ),
    _vendor("groq_key", rf"gsk_{_lb('gsk_')}(?P<b>[A-Za-z0-9]{{40,}})", ("gsk_",)),
    _vendor("xai_key", rf"xai-{_lb('xai-')}(?P<b>[A-Za-z0-9]{{40,}})", ("xai-",)),
    _vendor("replicate_token", rf"r8_{_lb('r8_')}(?P<b>[A-Za-z0-9]{{30,}})", ("r8_",)),
    _vendor("perplexity_key", rf"pplx-{_lb('pplx-')}(?P<b>[A-Za-z0-9]{{40,}})", ("pplx-",)),
    _vendor(
        "notion_token",
        rf"(?:secret_{_lb('secret_')}|ntn_{_lb('ntn_')})(?P<b>[A-Za-z0-9]{{40,}})(?![{_T}])",
        ("secret_", "ntn_"),
    ),
    _vendor("linear_key", rf"lin_api_{_lb('lin_api_')}(?P<b>[A-Za-z0-9]{{32,}})", ("lin_api_",)),
    _vendor(
        "atlassian_token",
        rf"ATATT3{_lb('ATATT3')}(?P<b>[A-Za-z0-9_\-=]{{40,}})",
        ("atatt3",),
    ),
    _vendor(
        "databricks_token",
        rf"dapi{_lb('dapi')}(?P<b>[0-9a-f]{{32}})(?:-\d)?(?![{_T}])",
        ("dapi",),
    ),
    _vendor(
        "supabase_key",
        rf"sbp_{_lb('sbp_')}(?P<b>[0-9a-f]{{40}})(?![{_T}])"
        rf"|sb_secret_{_lb('sb_secret_')}(?P<c>[{_T}]{{20,}})",
        ("sbp_", "sb_secret_"),
    ),
    _vendor(
        "digitalocean_token",
        rf"do[opr]_v1_{_lb('do[opr]_v1_')}(?P<b>[0-9a-f]{{64}})(?![{_T}])",
        ("_v1_",),
    ),
    _vendor(
        "shopify_token",
        rf"shp(?:at|ss|ca|pa)_{_lb('shp(?:at|ss|ca|pa)_')}(?P<b>[0-9a-fA-F]{{32}})(?![{_T}])",
        ("shpat_", "shpss_", "shpca_", "shppa_"),
    ),
    _vendor("twilio_key", rf"SK{_lb('SK')}(?P<b>[0-9a-f]{{32}})(?![{_T}])", ("sk",)),
    _vendor("mailgun_key", rf"key-{_lb('key-')}(?P<b>[0-9a-f]{{32}})(?![{_T}])", ("key-",)),
    Rule(
        "age_secret_key",
        95,
        LazyPattern(r"AGE-SECRET-KEY-1[02-9ac-hj-np-zAC-HJ-NP-Z]{58}"),
        hints=("age-secret-key-1",),
    ),
    _vendor(
        "square_token",
        rf"sq0(?:atp|csp){_lb('sq0(?:atp|csp)')}-(?P<b>[{_T}]{{22,}})"
        rf"|EAAA{_lb('EAAA')}(?P<c>[{_T}]{{60,}})",
        ("sq0atp-", "sq0csp-", "eaaa"),
    ),
    _vendor(
        "facebook_token",
        rf"EAA{_lb('EAA')}(?P<b>[A-Za-z0-9]{{80,}})(?![{_T}])",
        ("eaa",),
    ),
    _vendor(
        "twitter_token",
        rf"A{{20}}{_lb('A{20}')}A*(?P<b>[A-Za-z0-9%]{{40,}})(?![{_T}])",
        ("a" * 20,),
    ),
)


def vendor_candidates(text: str, lower: str) -> list[Candidate]:
    return run_rules(_RULES, text, lower)
