"""Real infrastructure for tests: a PostgreSQL server, a Chromium, live HTTP servers.

Plain helpers (no pytest fixtures here; see conftest.py for those). Each helper that needs
something from the machine raises :class:`Missing` with the reason when it is not there, so
that fixtures can turn it into a visible ``pytest.skip``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HINT = "run `bash scripts/ensure-system-deps.sh` (as root) or `make system-deps`"


class Missing(RuntimeError):
    """A part of the machine that a test needs is not installed."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def wait_for_port(host: str, port: int, timeout: float = 20.0, proc=None) -> None:
    """Block until a TCP connect to host:port succeeds; fail if ``proc`` dies first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server process exited with {proc.returncode} before listening")
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing answered on {host}:{port} within {timeout}s")


def port_answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


# --------------------------------------------------------------------------- PostgreSQL


def find_pg_bin() -> Path:
    """The folder holding initdb, pg_ctl and postgres (PATH first, then Debian's layout)."""
    candidates: list[Path] = []
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(Path(os.path.realpath(initdb)).parent)
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda p: [int(x) if x.isdigit() else 0 for x in Path(p).parent.name.split(".")],
        reverse=True,
    )
    candidates += [Path(p) for p in versions]
    for d in candidates:
        if all((d / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return d
    raise Missing(f"PostgreSQL server not installed: no initdb/pg_ctl/postgres found; {HINT}")


@dataclass
class PostgresServer:
    """A throwaway PostgreSQL cluster in a temp dir, on a loopback port."""

    bindir: Path
    root: Path
    port: int
    user: str
    dbname: str = "test"

    @property
    def datadir(self) -> Path:
        return self.root / "data"

    @property
    def sockdir(self) -> Path:
        return self.root / "sock"

    @property
    def url(self) -> str:
        """SQLAlchemy URL (psycopg 3 driver)."""
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{self.dbname}"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        cmd = list(args)
        if os.geteuid() == 0:  # postgres refuses to run as root
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(
            cmd,
            check=True,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            cwd=self.root,
        )

    def start(self) -> None:
        b = self.bindir
        try:
            self._run(
                str(b / "initdb"),
                "-D",
                str(self.datadir),
                "-U",
                self.user,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            )
            opts = (
                f"-c listen_addresses=127.0.0.1 -p {self.port} "
                f"-c unix_socket_directories={self.sockdir} -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off"
            )
            self._run(
                str(b / "pg_ctl"),
                "-D",
                str(self.datadir),
                "-l",
                str(self.root / "server.log"),
                "-o",
                opts,
                "-w",
                "-t",
                "60",
                "start",
            )
            self._run(
                str(b / "createdb") if (b / "createdb").is_file() else "createdb",
                "-h",
                str(self.sockdir),
                "-p",
                str(self.port),
                "-U",
                self.user,
                self.dbname,
            )
        except subprocess.CalledProcessError as e:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(
                f"PostgreSQL failed: {e.cmd}\nstdout: {e.stdout}\nstderr: {e.stderr}\nlog: {tail}"
            ) from e

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), "-m", "fast", "stop")


@contextlib.contextmanager
def postgres_server(dbname: str = "test") -> Iterator[PostgresServer]:
    """Start a fresh PostgreSQL cluster; yield it; stop it and remove its files."""
    bindir = find_pg_bin()
    if os.geteuid() == 0:
        user = "postgres"
        try:
            pw = pwd.getpwnam(user)
        except KeyError as e:
            raise Missing(
                "running as root and there is no 'postgres' user to run the server"
            ) from e
        if not shutil.which("runuser"):
            raise Missing("running as root and `runuser` is missing (util-linux)")
    else:
        pw = pwd.getpwuid(os.geteuid())
        user = pw.pw_name
    root = Path(tempfile.mkdtemp(prefix="ks-pg-"))
    try:
        (root / "sock").mkdir()
        if os.geteuid() == 0:
            for p in (root, root / "sock"):
                os.chown(p, pw.pw_uid, pw.pw_gid)
        server = PostgresServer(bindir, root, free_port(), user, dbname)
        server.start()
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)


# --------------------------------------------------------------------------- browser


def chromium_path() -> str:
    if not os.access(CHROMIUM, os.X_OK):
        raise Missing(f"Chromium not installed at {CHROMIUM}; {HINT}")
    return CHROMIUM


@contextlib.contextmanager
def chromium_browser() -> Iterator[object]:
    """A headless Playwright Chromium (Debian's binary; never Playwright's download)."""
    exe = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:
        raise Missing(f"Python package playwright not installed ({e}); run `make venv`") from e
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


# --------------------------------------------------------------------------- servers


@contextlib.contextmanager
def live_server(
    app_factory: Callable[[], object] | object, host: str = "127.0.0.1", timeout: float = 20.0
) -> Iterator[str]:
    """Serve an ASGI app with uvicorn in a background thread; yield its base URL.

    ``app_factory`` is a callable returning the app, or the ASGI app itself. The server is
    stopped (graceful shutdown) on exit.
    """
    import uvicorn

    app = app_factory
    if callable(app_factory) and not _looks_like_asgi_app(app_factory):
        app = app_factory()
    port = free_port(host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="auto")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn:{port}", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + timeout
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("uvicorn thread exited before the server started")
            if time.monotonic() > deadline:
                raise TimeoutError(f"uvicorn did not start on {host}:{port} within {timeout}s")
            time.sleep(0.02)
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _looks_like_asgi_app(obj: object) -> bool:
    """FastAPI/Starlette apps are callable too: tell an app from a factory."""
    try:
        from starlette.applications import Starlette

        if isinstance(obj, Starlette):
            return True
    except ImportError:
        pass
    import inspect

    call = obj if inspect.isfunction(obj) else getattr(obj, "__call__", None)  # noqa: B004
    try:
        return len(inspect.signature(call).parameters) == 3
    except (TypeError, ValueError):
        return False


@dataclass
class ServerProcess:
    """A server started as a real OS process (its own process group)."""

    proc: subprocess.Popen
    host: str
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self, timeout: float = 10.0) -> int:
        """SIGKILL the process group (no clean shutdown); wait for it; return the exit code."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        return self.proc.wait(timeout=timeout)

    def terminate(self, timeout: float = 10.0) -> int:
        """SIGTERM, then SIGKILL if it has not exited within ``timeout``."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                return self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        return self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@contextlib.contextmanager
def subprocess_server(
    cmd: Sequence[str] | Callable[[int], Sequence[str]],
    env: Mapping[str, str] | None = None,
    *,
    port: int | None = None,
    host: str = "127.0.0.1",
    timeout: float = 30.0,
    cwd: str | os.PathLike | None = None,
) -> Iterator[ServerProcess]:
    """Start a server process, wait until host:port answers, yield it; SIGKILL it at the end.

    ``cmd`` is an argv list in which the text ``{port}`` is replaced by the port, or a
    callable taking the port and returning the argv. ``port`` defaults to a free one; it is
    also passed as ``PORT`` in the environment. ``env`` entries are added to os.environ.
    Use ``.kill()`` on the yielded object for a real SIGKILL mid-test.
    """
    port = port or free_port(host)
    argv = list(cmd(port)) if callable(cmd) else [a.replace("{port}", str(port)) for a in cmd]
    full_env = {**os.environ, "PORT": str(port), **(env or {})}
    logf = tempfile.NamedTemporaryFile(prefix="ks-server-", suffix=".log", delete=False)  # noqa: SIM115
    log = Path(logf.name)
    proc = subprocess.Popen(
        argv,
        env=full_env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=logf,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    logf.close()
    server = ServerProcess(proc, host, port, log)
    try:
        try:
            wait_for_port(host, port, timeout=timeout, proc=proc)
        except Exception as e:
            server.kill()
            raise RuntimeError(f"{e}; command {argv}; output:\n{server.output()[-2000:]}") from e
        yield server
    finally:
        server.kill()
        with contextlib.suppress(OSError):
            log.unlink()
