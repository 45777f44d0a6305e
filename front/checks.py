"""System checks shown by every management command run from the shell."""

from __future__ import annotations

import os

from django.core import checks

from front import embedded


@checks.register()
def embedded_redis_is_running(app_configs, **kwargs) -> list[checks.Warning]:
    if os.environ.get("REDIS_URL") or embedded.redis_running():
        return []
    return [checks.Warning(
        "The embedded Redis is not running, so nothing is indexed, scored or delivered.",
        hint="Start the console with `make run` (`manage.py run_console`): only it starts the embedded Redis, "
             "and work recorded meanwhile is picked up once it runs.",
        id="console.W001",
    )]
