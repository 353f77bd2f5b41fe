"""What the model sees: system-prompt assembly and token counting.

May import: workspace, text, config, errors.
"""

from memclaw.prompt.assemble import assemble_prompt
from memclaw.prompt.blocks import AssembledPrompt, PromptBlock
from memclaw.prompt.tokens import TokenCounter, token_counter

__all__ = ["AssembledPrompt", "PromptBlock", "TokenCounter", "assemble_prompt", "token_counter"]
