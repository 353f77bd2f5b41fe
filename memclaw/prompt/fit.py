"""A prompt that fits a small model: files cut to their share of the context window.

A local model served with a 2048-token context cannot take a demo agent's 3,000
tokens of memory files. Rather than let the server drop the request, each file
block keeps its first lines up to its share of the budget (shares in proportion
to size), with a last line saying how much is left out and why. The files on
disk are untouched; a bigger ``context_window_tokens`` shows them whole again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from memclaw.prompt.tokens import token_counter

if TYPE_CHECKING:
    from memclaw.prompt.blocks import AssembledPrompt, PromptBlock

# Of the window, what memory's files may take; the rest is for the conversation,
# recalled memories, the tools and the answer.
PROMPT_SHARE = 0.45


def fit_to_window(prompt: AssembledPrompt, window: int) -> AssembledPrompt:
    """``prompt`` with its file blocks cut to fit ``PROMPT_SHARE`` of ``window`` tokens."""
    budget = int(window * PROMPT_SHARE)
    if prompt.total_tokens <= budget:
        return prompt
    files = [b for b in prompt.blocks if b.source]
    fixed = sum(b.tokens for b in prompt.blocks if not b.source)
    room = max(budget - fixed, 0)
    total = sum(b.tokens for b in files) or 1
    blocks = [_cut(b, room * b.tokens // total, window) if b.source else b for b in prompt.blocks]
    cut = [b.source for b, was in zip(blocks, prompt.blocks, strict=True) if b is not was]
    note = (
        f"the memory files were cut to fit a {window}-token context ({', '.join(cut)}); "
        "raise context_window_tokens if the model takes more"
    )
    return replace(prompt, blocks=blocks, notes=[*prompt.notes, note])


def _cut(block: PromptBlock, share: int, window: int) -> PromptBlock:
    count = token_counter().count
    if block.tokens <= share:
        return block
    lines = block.text.splitlines()
    kept = [lines[0]]  # the block's header names the file
    used = count(lines[0])
    for line in lines[1:]:
        cost = count(line) + 1
        if used + cost > share:
            break
        kept.append(line)
        used += cost
    left = len(lines) - len(kept)
    kept.append(f"[… {left} more lines of {block.source} left out to fit a {window}-token context]")
    text = "\n".join(kept)
    return replace(block, text=text, tokens=count(text))
