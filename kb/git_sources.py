"""Reading a Git branch's Markdown files with dulwich (pure Python: no git binary needed on the server).

Each source keeps a bare mirror under var/sources/; a sync fetches the branch into it and reads the files of the
fetched commit. The remote's head is taken as it is, so a force-push is read like any other commit.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path

from dulwich.client import get_transport_and_path
from dulwich.errors import GitProtocolError, HangupException, NotGitRepository
from dulwich.objects import Commit
from dulwich.repo import Repo
from django.conf import settings
from django.utils.translation import gettext_noop as _

from console.deferred_text import DeferredTextError

MARKDOWN_SUFFIXES = (".md", ".markdown")


class GitSourceError(DeferredTextError):
    """The branch could not be read at all: unreachable, refused, no such branch. The message is for curators."""


@dataclass(frozen=True)
class GitFile:
    path: str  # relative to the repository's root
    blob_sha: str
    size: int


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    author: str
    message: str


def mirror_path(source_id: int) -> Path:
    return Path(settings.KB_SOURCES_DIR) / f"source-{source_id}.git"


def _mirror(source_id: int) -> Repo:
    path = mirror_path(source_id)
    if path.exists():
        return Repo(str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    return Repo.init_bare(str(path), mkdir=True)


def branch_fetch(*, source_id: int, repository: str, branch: str, token: str = "") -> str:
    """Fetch ``branch`` of ``repository`` into the source's mirror; return the commit its head points at."""
    credentials = {"username": "x-access-token", "password": token} if token else {}
    try:
        client, remote_path = get_transport_and_path(repository, **credentials)
    except (ValueError, TypeError) as exc:
        raise GitSourceError(_("“%(repository)s” is not a repository address the console can read: %(error)s"),
                             repository=repository, error=exc) from exc
    repo = _mirror(source_id)
    ref = f"refs/heads/{branch}".encode()
    try:
        result = client.fetch(remote_path, repo,
                              determine_wants=lambda refs, depth=None: [refs[ref]] if ref in refs else [])
    except NotGitRepository as exc:
        raise GitSourceError(_("No Git repository at “%(repository)s”."), repository=repository) from exc
    except (GitProtocolError, HangupException, OSError) as exc:
        raise GitSourceError(_("The repository could not be reached: %(error)s"),
                             error=str(exc) or type(exc).__name__) from exc
    finally:
        repo.close()
    refs = result.refs
    if ref not in refs:
        branches = sorted(name.decode().removeprefix("refs/heads/") for name in refs if name.startswith(b"refs/heads/"))
        raise GitSourceError(_("The repository has no branch “%(branch)s” (it has: %(branches)s)."), branch=branch,
                             branches=", ".join(branches) or "—")
    head = refs[ref].decode()
    with Repo(str(mirror_path(source_id))) as mirror:
        mirror.refs[b"refs/sources/head"] = refs[ref]  # keeps the fetched objects from looking unreferenced
    return head


def markdown_files(*, source_id: int, commit: str, folder: str) -> list[GitFile]:
    """The Markdown files of ``commit`` under ``folder`` (every folder below it included)."""
    prefix = folder.strip("/")
    with Repo(str(mirror_path(source_id))) as repo:
        tree = repo[commit.encode()].tree
        files = []
        for entry in repo.object_store.iter_tree_contents(tree):
            path = entry.path.decode("utf-8", errors="replace")
            if not path.lower().endswith(MARKDOWN_SUFFIXES):
                continue
            if prefix and not path.startswith(prefix + "/"):
                continue
            files.append(GitFile(path=path, blob_sha=entry.sha.decode(),
                                 size=len(repo.object_store.get_raw(entry.sha)[1])))
        return sorted(files, key=lambda file: file.path)


def blob_read(*, source_id: int, blob_sha: str) -> bytes:
    with Repo(str(mirror_path(source_id))) as repo:
        return repo[blob_sha.encode()].data


def last_commit_of(*, source_id: int, commit: str, path: str) -> CommitInfo:
    """The commit (at or before ``commit``) that last changed ``path``: what a version records."""
    with Repo(str(mirror_path(source_id))) as repo:
        walker = repo.get_walker(include=[commit.encode()], paths=[path.encode()], max_entries=1)
        entry = next(iter(walker), None)
        found: Commit = entry.commit if entry is not None else repo[commit.encode()]
        return CommitInfo(sha=found.id.decode(), author=found.author.decode("utf-8", errors="replace")[:200],
                          message=found.message.decode("utf-8", errors="replace").strip())


def relative_to_folder(path: str, folder: str) -> str:
    prefix = folder.strip("/")
    return posixpath.relpath(path, prefix) if prefix else path
