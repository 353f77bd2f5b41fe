"""Merging one bucket's entries: offline by rules, or by asking the model.

Beyond duplicates, two merges follow the extraction skill's contract: a newer
version of a fact about one named thing absorbs what only the older one said
(the older goes), and short compatible facts about one subject become one
sentence ("User has a dog", "Dog's name is Poppy", "User walks the dog daily").
Neither ever rewords an entry a person stated (``remember`` in their words):
offline such entries are left out of both merges; a model is told they are
fixed, and an answer that changed or dropped one gets it back as it was.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from memclaw.errors import ModelAnswerError
from memclaw.text.combine import absorb, join, short, updates
from memclaw.text.likeness import Fingerprint, near_duplicate, supersedes
from memclaw.workspace.entries import Entry

if TYPE_CHECKING:
    from memclaw.llm import ChatModel

SYSTEM = """\
You tidy a list of memory entries: short standalone facts an assistant keeps about \
the people it works with. Merge entries that say the same thing into one, and drop \
an entry when a newer one replaces it (for example a changed date or a moved \
deadline). When a newer entry updates an older one about the same thing (a trip \
first planned, later booked), keep one entry: the newer wording plus every detail \
only the older one had. When several short entries describe one subject and fit \
together ("has a dog", "the dog is called Poppy", "walks the dog daily"), write \
them as one self-contained sentence. Keep every other entry unchanged.

Rules:
- The result must not have more entries than the input.
- Each entry you return keeps the id of one of the entries it came from.
- An entry marked "fixed" is in the person's own words: return it exactly as given, \
never merged into another, never reworded.
- An entry is one sentence of roughly 15 to 50 words, or shorter when that is natural.
- Name things; no "he", "she", "it" or "they" for something the entry does not name.
- Do not invent facts. Keep dates and names exact. Keep the user's language.
- Never include passwords, keys or tokens.

Answer with one JSON object and nothing else:
{"entries": [{"id": "an id from the input", "text": "the fact"}, ...]}"""


class EntriesGrewError(ModelAnswerError):
    """The model answered with more entries than it was given."""


def merge_entries_offline(entries: list[Entry], fixed: frozenset[str] = frozenset()) -> list[Entry]:
    """Deterministic merge: near-duplicates become their most complete member, a
    superseded entry (same subject, older value) gives way to the newer one, a newer
    version absorbs the older's details, and short facts about one subject are joined.
    Entries whose id is in ``fixed`` (a person's words) are never reworded."""
    ordered = sorted(entries, key=lambda e: (e.sort_date, e.id), reverse=True)  # newest first
    prints = {e.id: Fingerprint.of(e.text) for e in ordered}
    groups: list[list[Entry]] = []
    for entry in ordered:
        fp = prints[entry.id]
        home = next(
            (
                g
                for g in groups
                if entry.id not in fixed
                and g[0].id not in fixed
                and g[0].category == entry.category
                and any(
                    near_duplicate(fp, prints[o.id], 0.6) or supersedes(prints[o.id], fp) for o in g
                )
            ),
            None,
        )
        if home is None:
            groups.append([entry])
        else:
            home.append(entry)
    merged = []
    for group in groups:
        newest = group[0]
        if len(group) == 1:
            merged.append(newest)
            continue
        fresh = [o for o in group if not supersedes(prints[newest.id], prints[o.id])]
        fullest = max(fresh, key=lambda o: (len(prints[o.id].tokens), o.sort_date))
        created = [o.created for o in group if o.created]
        extra = dict(newest.extra)
        extra["merged"] = ", ".join(sorted(o.id for o in group if o.id != newest.id))
        merged.append(
            replace(
                newest, text=fullest.text, created=min(created) if created else None, extra=extra
            )
        )
    order = {e.id: i for i, e in enumerate(entries)}
    return _combine(sorted(merged, key=lambda e: order[e.id]), fixed)


def _combine(entries: list[Entry], fixed: frozenset[str]) -> list[Entry]:
    """Newer versions absorb older ones, then short facts about one subject join (in order)."""
    from memclaw.judgement import judge

    def fits(texts: list[str]) -> bool:  # no two of them disagree
        return not any(judge(a, b).disagrees for i, a in enumerate(texts) for b in texts[i + 1 :])

    newest = sorted(
        (e for e in entries if e.id not in fixed), key=lambda e: (e.sort_date, e.id), reverse=True
    )
    text = {e.id: e.text for e in entries}
    into: dict[str, list[Entry]] = {}  # survivor id -> the entries it took in
    gone: set[str] = set()
    for n, newer in enumerate(newest):
        for older in newest[n + 1 :]:
            if newer.id in gone or older.id in gone or older.category != newer.category:
                continue
            if not updates(text[newer.id], older.text) or not fits([older.text, text[newer.id]]):
                continue
            if (whole := absorb(text[newer.id], older.text)) is not None:
                text[newer.id] = whole
                into.setdefault(newer.id, []).append(older)
                gone.add(older.id)
    left = [e for e in newest if e.id not in gone and short(text[e.id])]
    for n, lead in enumerate(left):
        if lead.id in gone:
            continue
        group = [lead]
        for other in left[n + 1 :]:
            texts = [text[e.id] for e in reversed([*group, other])]  # oldest first reads best
            if other.category != lead.category:  # a joined fact takes the lead's category
                continue
            if other.id not in gone and join(texts) is not None and fits(texts):
                group.append(other)
        if len(group) > 1:
            text[lead.id] = join([text[e.id] for e in reversed(group)]) or text[lead.id]
            into.setdefault(lead.id, []).extend(group[1:])
            gone.update(e.id for e in group[1:])
    result = []
    for entry in entries:
        if entry.id in gone:
            continue
        taken = into.get(entry.id)
        if taken:
            created = [e.created for e in [entry, *taken] if e.created]
            extra = dict(entry.extra)
            ids = {*extra.get("merged", "").split(", "), *(e.id for e in taken)} - {""}
            extra["merged"] = ", ".join(sorted(ids))
            entry = replace(
                entry, text=text[entry.id], created=min(created) if created else None, extra=extra
            )
        result.append(entry)
    return result


def merge_entries_model(
    model: ChatModel, entries: list[Entry], today: date, fixed: frozenset[str] = frozenset()
) -> list[Entry]:
    """Ask the model for the merged list; ids must come from the input, ``fixed`` stay as is."""
    import json

    listing = [
        {"id": e.id, "category": e.category, "text": e.text, "updated": str(e.sort_date)}
        | ({"fixed": True} if e.id in fixed else {})
        for e in entries
    ]
    answer = model.chat_json(
        [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": json.dumps(listing, ensure_ascii=False, indent=1)},
        ],
        required={"entries": list},
    )
    if len(answer["entries"]) > len(entries):
        raise EntriesGrewError(f"{len(answer['entries'])} entries > {len(entries)}")
    by_id = {e.id: e for e in entries}
    result: list[Entry] = []
    seen: set[str] = set()
    for item in answer["entries"]:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise ModelAnswerError("consolidation answer: each entry needs an id and a text")
        ident, text = item.get("id"), item["text"].strip()
        if ident not in by_id or ident in seen or not text:
            raise ModelAnswerError(f"consolidation answer: unknown or repeated id {ident!r}")
        seen.add(ident)
        original = by_id[ident]
        same = text == original.text or ident in fixed  # a person's words come back as they were
        result.append(original if same else original.touched(text, today))
    # A fixed entry the model merged away is kept: only its author may let it go.
    result += [e for e in entries if e.id in fixed and e.id not in seen]
    return result
