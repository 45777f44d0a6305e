"""Real Git repositories for the tests, made with dulwich (the library the console reads them with)."""

from __future__ import annotations

from pathlib import Path

from dulwich import porcelain
from dulwich.repo import Repo

AUTHOR = b"Maria Lopez <maria@example.org>"


class GitRepo:
    """A working repository on branch ``main`` that a test writes files to and commits."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.repo = porcelain.init(str(path))
        self.repo.refs.set_symbolic_ref(b"HEAD", b"refs/heads/main")

    def write(self, relative: str, text: str | bytes) -> None:
        target = self.path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text if isinstance(text, bytes) else text.encode())
        porcelain.add(self.repo, paths=[str(target)])

    def remove(self, relative: str) -> None:
        porcelain.rm(self.repo, paths=[str(self.path / relative)])

    def commit(self, message: str) -> str:
        return porcelain.commit(self.repo, message=message.encode(), author=AUTHOR, committer=AUTHOR).decode()

    def reset_hard(self, commit: str) -> None:
        porcelain.reset(self.repo, "hard", commit)

    def head(self) -> str:
        return self.repo.refs[b"refs/heads/main"].decode()

    def close(self) -> None:
        self.repo.close()


def bare_clone(source: GitRepo, path: Path) -> Repo:
    return porcelain.clone(str(source.path), str(path), bare=True, checkout=False)
