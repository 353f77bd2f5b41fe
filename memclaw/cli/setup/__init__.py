"""Setting memclaw up: `config`, `cron`, `completion` and `doctor`."""
