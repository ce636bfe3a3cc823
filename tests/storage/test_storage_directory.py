"""The data directory as the card gives it: a file in its place, a directory in the
database's, read-only files and folders: each a StorageError in one sentence."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from companion.storage import FINDINGS_NAME, LEDGER_NAME, Storage, StorageError
from engine import GameSetup


def open_storage(path):
    return Storage.open(path)


# -- the data directory ----------------------------------------------------------


def test_a_data_directory_that_is_a_file_is_a_storage_error(tmp_path):
    (tmp_path / "data").write_text("")
    with pytest.raises(StorageError, match="is a file, not a directory"):
        open_storage(tmp_path / "data")
    with pytest.raises(StorageError, match="Could not create the data directory"):
        open_storage(tmp_path / "data" / "below")


def test_a_database_path_that_is_a_directory_is_a_storage_error(tmp_path):
    (tmp_path / "games.db").mkdir()
    with pytest.raises(StorageError, match="not a regular file"):
        open_storage(tmp_path)
    assert (tmp_path / "games.db").is_dir()


def open_unprivileged(data_dir):
    """Open the storage in a forked child that is not root (root may write anywhere).

    Returns the StorageError message, or "opened".
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report and leave without running pytest's clean-up
        message = "the child failed"
        try:
            if os.geteuid() == 0:
                os.setgid(65534)  # nobody
                os.setuid(65534)
            Storage.open(data_dir).close()
            message = "opened"
        except StorageError as error:
            message = str(error)
        finally:
            os.write(write_end, message.encode())
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        message = pipe.read().decode()
    os.waitpid(pid, 0)
    return message


@pytest.fixture
def shared_dir():
    """A directory that an unprivileged child can reach (pytest's tmp_path is root's only)."""
    path = Path(tempfile.mkdtemp(prefix="storage-test-"))
    path.chmod(0o711)
    yield path
    for directory in (path, *path.rglob("*")):
        if directory.is_dir():
            directory.chmod(0o700)
    shutil.rmtree(path)


def test_a_read_only_data_directory_is_a_storage_error(shared_dir):
    data_dir = shared_dir / "data"
    data_dir.mkdir(mode=0o555)
    assert open_unprivileged(data_dir) == (
        f"The data directory {data_dir} is not writable, so the games cannot be saved;"
        " check its owner and permissions"
    )
    assert open_unprivileged(data_dir / "below").startswith(
        f"Could not create the data directory {data_dir / 'below'}: Permission denied"
    )
    assert list(data_dir.iterdir()) == []


def test_a_read_only_database_file_is_a_storage_error(shared_dir):
    data_dir = shared_dir / "data"
    data_dir.mkdir()
    data_dir.chmod(0o777)
    open_storage(data_dir).close()
    (data_dir / LEDGER_NAME).chmod(0o666)  # made by root, opened by nobody
    (data_dir / FINDINGS_NAME).chmod(0o666)
    (data_dir / "games.db").chmod(0o444)
    before = sorted(path.name for path in data_dir.iterdir())
    assert "is read-only, so the games cannot be saved" in open_unprivileged(data_dir)
    # nothing left behind (read-only -wal and -shm files once made every later write fail)
    assert sorted(path.name for path in data_dir.iterdir()) == before
    (data_dir / "games.db").chmod(0o666)
    assert open_unprivileged(data_dir) == "opened"


def test_read_only_journal_files_are_named_at_start(shared_dir):
    """-wal and -shm files left read-only (as an older version's refused start left them)
    would make every action fail with "attempt to write a readonly database": the start
    names the file instead, and changes nothing."""
    data_dir = shared_dir / "data"
    data_dir.mkdir()
    data_dir.chmod(0o777)
    with open_storage(data_dir) as storage:
        storage.new_game(GameSetup(players=2))
    (data_dir / "games.db").chmod(0o666)
    (data_dir / LEDGER_NAME).chmod(0o666)
    (data_dir / FINDINGS_NAME).chmod(0o666)
    for side in ("-wal", "-shm"):  # as the refused start left them: empty, read-only
        Path(f"{data_dir / 'games.db'}{side}").touch(mode=0o444)
    before = sorted(path.name for path in data_dir.iterdir())
    message = open_unprivileged(data_dir)
    assert "The journal file" in message and "is read-only" in message
    assert sorted(path.name for path in data_dir.iterdir()) == before
