"""The secret gate's rules, one module per way a credential shows itself.

Each proposes candidate spans; :mod:`memclaw.gates.secrets` merges them and is the API.
"""
