#!/usr/bin/env python3
"""Timing driver of `make bench`: authcode against the curl + openssl + sed
scripts people write today, on the local fixture authorization server.

run.sh starts the fixture server twice (as common servers are: no
TCP_NODELAY; and with --nodelay) and django-oauth-toolkit, and calls this
with their base URLs:

    bench.py --authcode BIN --base http://127.0.0.1:PORT
             [--base-nodelay http://127.0.0.1:PORT2] [--dot http://127.0.0.1:PORT3]
             [--base-tls https://127.0.0.1:PORT4 --cacert CA.pem]
             [--base-tls-nodelay https://127.0.0.1:PORT5]
             [--cert-dir DIR] [--cert-file FILE]
             [--runs N] [--warmup N] [--rss-runs N]
             [--static-binary BIN | --static-note TEXT]

Every timed run is one `subprocess.run` wrapped in `time.perf_counter_ns`, so
both sides pay the same fork/exec cost. The two sides of a row alternate
(A B, B A, A B, ...) after a warm-up, and every run is checked: a flow must
print a token (`access_token` on stdout), `--version` must print a version.
Each run gets its own fixture run id (`/t/bench-<n>/<scenario>`), and its hits
are cleared afterwards, so server state never grows.

The report (Markdown) goes to stdout, progress to stderr. Exit status: 0 when
everything ran, whatever the numbers; 1 when something could not run at all
(a flow without a token, a missing tool); 2 for a usage error. Standard
library only.
"""
import argparse
import datetime
import resource
import os
import platform
import re
import shutil
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
CURL_FLOW = os.path.join(HERE, "curl-flow.sh")
CURL_WALK = os.path.join(HERE, "curl-walk.sh")
CURL_DOT = os.path.join(HERE, "curl-dot.sh")

CLIENT_ID = "demo-app"
CLIENT_SECRET = "demo-secret"
USERNAME = "alice"
PASSWORD = "wonderland"
REDIRECT_URI = "http://127.0.0.1:8765/callback"  # never fetched by either side
SCOPE = "profile"
# django-oauth-toolkit (Fixtures/django/run_server.py): login, then consent.
DOT_CLIENT_ID = "conf-consent"
DOT_CLIENT_SECRET = "conf-secret"
DOT_SCOPE = "read"

# Informational targets (issue text): ratio targets are authcode/baseline.
FLOW_RATIO_TARGET = 0.5
STARTUP_RATIO_TARGET = 1.5
FLOW_RSS_TARGET_MIB = 14.0
# ARCHITECTURE "Security rules": no answer under the body limit takes a flow past 64 MiB,
# nor a --parallel 8 batch past 256 MiB.
LARGE_FLOW_RSS_TARGET_MIB = 64.0
LARGE_BATCH_RSS_TARGET_MIB = 256.0
LARGE_ANSWERS = [
    ("token-large-kid", "id_token naming a 1 MB `kid`"),
    ("token-large-access", "3 MB access token"),
    ("token-large-refresh", "3 MB refresh token"),
    ("token-large-claim", "id_token with a 2.9 MB claim"),
]
LARGE_BATCHES = {"token-large-kid", "token-large-access", "token-large-claim"}
# One https flow against one plain flow (the TLS library's pages).
TLS_RSS_EXTRA_TARGET_MIB = 2.0
# One https flow against a server without TCP_NODELAY and one with it (the
# session-ticket stall, issue 30).
NAGLE_RATIO_TARGET = 1.5
# The system's store (a hashed directory) against a one-certificate --cacert,
# CPU of one flow.
SYSTEM_STORE_CPU_TARGET = 1.15
# Where the system's certificates are on Debian (ca-certificates).
SYSTEM_CERT_DIR = "/etc/ssl/certs"
SYSTEM_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"

MIB = 1024 * 1024


class BenchError(Exception):
    """Something could not run at all: the bench exits 1."""


def log(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


def child_environment():
    """The caller's environment without what would change what is measured:
    AUTHCODE_* options (every flag reads one), proxies (both libcurl and
    curl honour them; the server is on loopback) and OpenSSL's certificate
    variables (they choose authcode's trust store: the trust rows set them
    themselves)."""
    env = {}
    for name, value in os.environ.items():
        if name.startswith("AUTHCODE_") or name.lower() in (
                "http_proxy", "https_proxy", "all_proxy", "no_proxy") or name in ("SSL_CERT_FILE", "SSL_CERT_DIR"):
            continue
        env[name] = value
    return env


ENV = child_environment()
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def trust(cacert):
    """The bench's own requests (clearing hits) to the https fixture trust
    its private CA."""
    global _NO_PROXY
    context = ssl.create_default_context(cafile=cacert)
    _NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                            urllib.request.HTTPSHandler(context=context))


def excerpt(data, limit=600):
    text = data.decode("utf-8", "replace").strip()
    return text if len(text) <= limit else "…" + text[-limit:]


# ---- what is run ------------------------------------------------------------

class Command:
    """One side of a row: how to build its argv for a fresh fixture run id,
    and what its stdout must contain."""

    def __init__(self, label, build, must_contain, scenario=None, base=None, env=None):
        self.label = label
        self.env = env or ENV        # the children's environment
        self._build = build          # run id (or None) -> argv
        self.must_contain = must_contain
        self.scenario = scenario     # None: no fixture run id (no server, or DOT)
        self.base = base             # the fixture server whose hits to clear

    def argv(self, bench):
        run_id = bench.next_run_id() if self.scenario else None
        return self._build(run_id), run_id

    def check(self, argv, completed):
        if completed.returncode != 0 or self.must_contain not in completed.stdout:
            raise BenchError(
                f"{self.label} did not succeed (exit {completed.returncode}, "
                f"expected {self.must_contain.decode()!r} on stdout)\n"
                f"  command: {' '.join(argv)}\n"
                f"  stdout: {excerpt(completed.stdout) or '(empty)'}\n"
                f"  stderr: {excerpt(completed.stderr) or '(empty)'}")


class Bench:
    def __init__(self, args):
        self.args = args
        self.base = args.base.rstrip("/")
        self.counter = 0
        self.tmp = tempfile.TemporaryDirectory(prefix="authcode-bench-")
        self.secret_file = self._write("secret", CLIENT_SECRET + "\n")
        self.dot_secret_file = self._write("dot-secret", DOT_CLIENT_SECRET + "\n")
        self.password_file = self._write("password", PASSWORD + "\n")
        self.gnu_time = self._find_gnu_time()
        self._floor = None

    def _write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as handle:
            handle.write(text)
        os.chmod(path, 0o600)
        return path

    def next_run_id(self):
        self.counter += 1
        return f"bench-{self.counter}"

    @staticmethod
    def issuer(base, run_id, scenario):
        return f"{base}/t/{run_id}/{scenario}"

    @staticmethod
    def clear_hits(base, run_id):
        """Drop the run's recorded requests (outside the timed section)."""
        request = urllib.request.Request(f"{base}/_hits/{run_id}", method="DELETE")
        try:
            with _NO_PROXY.open(request, timeout=10) as response:
                response.read()
        except OSError as error:
            raise BenchError(f"the fixture server stopped answering ({error})")

    # -- the commands --

    def authcode_flow(self, binary, label="authcode", scenario="direct", walk=False, base=None, cacert=None, env=None):
        """`env`: variables added to the children's environment (the trust
        rows' SSL_CERT_DIR / SSL_CERT_FILE)."""
        base = base or self.base

        def build(run_id):
            issuer = self.issuer(base, run_id, scenario)
            argv = [binary,
                    "--authorize-url", issuer + "/authorize",
                    "--token-url", issuer + "/token",
                    "--client-id", CLIENT_ID,
                    "--client-secret", "@" + self.secret_file,
                    "--redirect-uri", REDIRECT_URI,
                    "--scope", SCOPE,
                    "--pkce", "S256"]
            if walk:
                argv += ["--form", f"username={USERNAME}",
                         "--form", f"password=@{self.password_file}"]
            if cacert:
                argv += ["--cacert", cacert]
            return argv
        return Command(label, build, b'"access_token"', scenario, base, dict(ENV, **env) if env else None)

    def authcode_large(self, binary, scenario, records=0):
        """A flow (or a `--users` batch of `records` at `--parallel 8`)
        against a token answer just under the 4 MiB body limit with one huge
        value (Fixtures/server/large.py); `-v`, so the redactor scrubs."""
        users = self._write(f"users-{records}.csv", "username\n" + "".join(f"user{n}\n" for n in range(1, records + 1))) if records else None

        def build(run_id):
            issuer = self.issuer(self.base, run_id, scenario)
            argv = [binary, "--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token",
                    "--client-id", CLIENT_ID, "--client-secret", "@" + self.secret_file,
                    "--redirect-uri", REDIRECT_URI, "--scope", "openid", "-v"]
            if users:
                argv += ["--users", users, "--parallel", "8"]
            return argv
        return Command(f"authcode ({scenario})", build, b'"access_token"', scenario, self.base)

    def curl_flow(self, base=None, cacert=None):
        base = base or self.base
        return Command("curl-flow.sh",
                       lambda run_id: [CURL_FLOW, self.issuer(base, run_id, "direct")],
                       b'"access_token"', "direct", base, dict(ENV, CACERT=cacert) if cacert else None)

    def curl_walk(self, base=None):
        base = base or self.base
        return Command("curl-walk.sh",
                       lambda run_id: [CURL_WALK, self.issuer(base, run_id, "login-consent"),
                                       self.password_file],
                       b'"access_token"', "login-consent", base)

    def authcode_dot(self, binary, dot):
        """The flags a user gives: no --method, so the POST meets DOT's CSRF
        403 and authcode falls back to GET (one more request)."""
        return Command("authcode (DOT)", lambda _: [
            binary, "--authorize-url", dot + "/o/authorize/", "--token-url", dot + "/o/token/",
            "--client-id", DOT_CLIENT_ID, "--client-secret", "@" + self.dot_secret_file,
            "--redirect-uri", REDIRECT_URI, "--scope", DOT_SCOPE,
            "--form", f"username={USERNAME}", "--form", f"password=@{self.password_file}", "-q"],
            b'"access_token"')

    def curl_dot(self, dot):
        return Command("curl-dot.sh", lambda _: [CURL_DOT, dot, self.password_file], b'"access_token"')

    @staticmethod
    def version(binary, label, expect):
        return Command(label, lambda _: [binary, "--version"], expect)

    # -- running --

    def run_once(self, command):
        """One checked, timed run. Returns milliseconds of wall time, and
        keeps the CPU time (user + system of the process and everything it
        waited for, from getrusage(RUSAGE_CHILDREN) around the run) in
        `last_cpu`: a figure the load of other processes changes little."""
        argv, run_id = command.argv(self)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter_ns()
        completed = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=command.env)
        elapsed = time.perf_counter_ns() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.last_cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
        command.check(argv, completed)
        if run_id:
            self.clear_hits(command.base, run_id)
        return elapsed / 1e6

    def alternate(self, a, b):
        """Warm-up, then runs of A and B alternating A B, B A, ...: drift in
        machine load (2 shared cores) hits both sides alike. Wall times are
        returned; the CPU times of the same runs are in `self.cpu[command]`."""
        for _ in range(self.args.warmup):
            self.run_once(a)
            self.run_once(b)
        times = {a: [], b: []}
        self.cpu = {a: [], b: []}
        for i in range(self.args.runs):
            for command in ((a, b) if i % 2 == 0 else (b, a)):
                times[command].append(self.run_once(command))
                self.cpu[command].append(self.last_cpu)
        return times[a], times[b]

    # -- peak RSS --

    @staticmethod
    def _find_gnu_time():
        if os.environ.get("BENCH_RSS") == "wrapper":  # force the fallback
            return None
        path = shutil.which("time", path="/usr/bin:/bin:/usr/local/bin")
        if not path:
            return None
        probe = subprocess.run([path, "-v", "true"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
        return path if b"Maximum resident set size" in probe.stderr else None

    def peak_rss_kib(self, command):
        """Peak RSS of one checked run, in KiB. For a script this is the
        largest single process of its tree (ru_maxrss of waited children is
        a maximum, not a sum) - the same with /usr/bin/time and wait4."""
        argv, run_id = command.argv(self)
        if self.gnu_time:
            completed = subprocess.run([self.gnu_time, "-v"] + argv, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=command.env)
            match = re.search(rb"Maximum resident set size \(kbytes\): (\d+)", completed.stderr)
            command.check(argv, completed)
            if not match:
                raise BenchError(f"/usr/bin/time -v printed no maximum RSS for {command.label}")
            kib = int(match.group(1))
        else:
            kib, completed = self._wait4(argv, command.env)
            command.check(argv, completed)
        if run_id:
            self.clear_hits(command.base, run_id)
        return kib

    def wait4_floor_kib(self):
        """What the fallback reports for `true`: see _wait4."""
        if self._floor is None:
            self._floor = self._wait4(["true"])[0]
        return self._floor

    @staticmethod
    def _wait4(argv, env=None):
        """Without GNU time: a tiny Python wrapper (`-I -S`, only `os`)
        posix_spawns the command, wait4s it and reports its ru_maxrss (what
        getrusage(RUSAGE_CHILDREN) would say) as the last stderr line.
        Linux keeps a process's RSS high-water mark across exec, and a
        spawned child starts inside its parent's memory, so values have a
        floor of the wrapper's own RSS (about 8 MiB): the header prints it.
        GNU time forks from a small C process and has no such floor."""
        completed = subprocess.run([sys.executable, "-I", "-S", "-c", _RSS_WRAPPER] + argv,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=env or ENV)
        stderr, _, last = completed.stderr.rstrip(b"\n").rpartition(b"\n")
        if not stderr and not last.startswith(b"MAXRSS_KIB "):
            stderr, last = last, b""
        match = re.fullmatch(rb"MAXRSS_KIB (\d+)", last)
        if not match:
            raise BenchError(f"the RSS wrapper failed for {argv[0]}: {excerpt(completed.stderr)}")
        completed.stderr = stderr
        return int(match.group(1)), completed


# Runs as `python3 -I -S -c _RSS_WRAPPER COMMAND ARG...`.
_RSS_WRAPPER = """import os, sys
try:
    pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ)
except OSError as error:
    sys.stderr.write(f"{sys.argv[1]}: {error}\\n")
    sys.exit(127)
_, status, usage = os.wait4(pid, 0)
sys.stderr.write(f"MAXRSS_KIB {usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""


# ---- system description -------------------------------------------------------

def first_line(argv):
    try:
        completed = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, env=ENV, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "not available"
    lines = completed.stdout.decode("utf-8", "replace").strip().splitlines()
    return lines[0].strip() if lines else "not available"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def load_average():
    try:
        with open("/proc/loadavg") as handle:
            return " ".join(handle.read().split()[:3])
    except OSError:
        return "unknown"


# ---- formatting ---------------------------------------------------------------

def ms(value):
    return f"{value:.1f}" if value >= 100 else f"{value:.2f}"


def mib(kib):
    return f"{kib / 1024:.1f}"


def verdict(ok):
    return "PASS" if ok else "MISS"


def timing_row(name, a_label, a, b_label, b, target=None):
    a_med, b_med = statistics.median(a), statistics.median(b)
    ratio = a_med / b_med
    target_cell = f"≤ {target:g}×" if target is not None else "—"
    result = verdict(ratio <= target) if target is not None else ""
    return (f"| {name} | {a_label} | {ms(a_med)} | {ms(min(a))} | {ms(max(a))} "
            f"| {b_label} | {ms(b_med)} | {ms(min(b))} | {ms(max(b))} "
            f"| {ratio:.2f} | {target_cell} | {result} |")


def large_rss_row(what, run, kib, target_mib):
    return (f"| {what} | {run} | {mib(statistics.median(kib))} | {mib(max(kib))} "
            f"| ≤ {target_mib:g} MiB | {verdict(max(kib) / 1024 <= target_mib)} |")


def rss_row(name, a_label, a, b_label, b, target_mib=None):
    a_med, b_med = statistics.median(a), statistics.median(b)
    target_cell = f"≤ {target_mib:g} MiB" if target_mib is not None else "—"
    result = verdict(max(a) / 1024 <= target_mib) if target_mib is not None else ""
    return (f"| {name} | {a_label} | {mib(a_med)} | {mib(max(a))} "
            f"| {b_label} | {mib(b_med)} | {mib(max(b))} "
            f"| {a_med / b_med:.2f} | {target_cell} | {result} |")


def shown(path):
    """A binary's path relative to the repository when it is inside it."""
    root = os.path.dirname(os.path.dirname(HERE))
    relative = os.path.relpath(path, root)
    return path if relative.startswith("..") else relative


def file_size(path):
    size = os.path.getsize(path)
    stripped = "—"
    strip = shutil.which("strip")
    if strip:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "stripped")
            if subprocess.run([strip, "-o", out, path], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0:
                stripped = f"{os.path.getsize(out) / MIB:.2f} MiB"
    return f"{size / MIB:.2f} MiB", stripped


# ---- main ----------------------------------------------------------------------

def parse_arguments(argv):
    def env_int(name, default):
        try:
            return int(os.environ.get(name, default))
        except ValueError:
            return default

    parser = argparse.ArgumentParser(description="authcode benchmark driver (see README.md)")
    parser.add_argument("--authcode", required=True, help="the authcode binary to measure")
    parser.add_argument("--base", required=True,
                        help="fixture server base URL (READY line), started without --nodelay")
    parser.add_argument("--base-nodelay", help="a second fixture server, started with --nodelay")
    parser.add_argument("--base-tls", help="a fixture server over https (no --nodelay), for the https rows")
    parser.add_argument("--cacert", help="the CA that signed --base-tls's certificate")
    parser.add_argument("--base-tls-nodelay", help="the https fixture started with --nodelay")
    parser.add_argument("--cert-dir", help="a hashed copy of the system's certificate directory with --cacert's CA added")
    parser.add_argument("--cert-file", help="the system's CA bundle with --cacert's CA appended")
    parser.add_argument("--dot", help="django-oauth-toolkit base URL (Fixtures/django/run_server.py)")
    parser.add_argument("--dot-note", default="not run",
                        help="what to print instead of the django-oauth-toolkit row")
    parser.add_argument("--runs", type=int, default=env_int("BENCH_RUNS", 20),
                        help="timed runs per side and row, at least 20 (env BENCH_RUNS)")
    parser.add_argument("--warmup", type=int, default=env_int("BENCH_WARMUP", 3),
                        help="untimed runs per side before each row (env BENCH_WARMUP)")
    parser.add_argument("--rss-runs", type=int, default=env_int("BENCH_RSS_RUNS", 5),
                        help="runs per side for peak RSS (env BENCH_RSS_RUNS)")
    static = parser.add_mutually_exclusive_group()
    static.add_argument("--static-binary", help="authcode built with --static-swift-stdlib")
    static.add_argument("--static-note", default="not built",
                        help="what to print instead of the static binary's size")
    args = parser.parse_args(argv)
    if args.runs < 20:
        parser.error("--runs must be at least 20 (medians of at least 20 runs)")
    if bool(args.base_tls) != bool(args.cacert):
        parser.error("--base-tls and --cacert go together")
    if args.warmup < 0 or args.rss_runs < 1:
        parser.error("--warmup must be >= 0 and --rss-runs >= 1")
    return args


def require_tools(args):
    for path in [args.authcode] + ([args.static_binary] if args.static_binary else []):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise BenchError(f"no executable at {path}")
    for tool in ("bash", "curl", "openssl", "sed", "grep", "tr"):
        if not shutil.which(tool):
            raise BenchError(f"{tool} not found on PATH: the baseline scripts need it")


def main(argv=None):
    args = parse_arguments(argv)
    args.authcode = os.path.abspath(args.authcode)
    if args.static_binary:
        args.static_binary = os.path.abspath(args.static_binary)
    out = []
    failure = None
    if args.cacert:
        trust(args.cacert)
    try:
        require_tools(args)
        bench = Bench(args)
        out += header(args, bench)
        measure(args, bench, out)
    except BenchError as error:
        failure = str(error)
    print("\n".join(out), flush=True)
    if failure:
        print(f"bench: error: {failure}", file=sys.stderr)
        return 1
    return 0


def header(args, bench):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    uname = os.uname()
    if bench.gnu_time:
        rss_tool = "/usr/bin/time -v"
    else:
        rss_tool = (f"a Python posix_spawn + wait4 wrapper (GNU time not used: values have a floor of "
                    f"{mib(bench.wait4_floor_kib())} MiB, `true` measured the same way; "
                    f"`apt-get install -y time` for exact values)")
    return [
        "## authcode benchmark",
        "",
        f"- date: {now}",
        f"- system: {uname.sysname} {uname.release} {uname.machine}",
        f"- cpu: {cpu_model()} ({os.cpu_count()} logical cores); load average at start: {load_average()}",
        f"- authcode: {first_line([args.authcode, '--version'])} (`{shown(args.authcode)}`)",
        f"- curl: {first_line(['curl', '--version'])}",
        f"- openssl: {first_line(['openssl', 'version'])}; bash: {first_line(['bash', '--version'])}",
        f"- swift: {first_line(['swift', '--version']) if shutil.which('swift') else 'not on PATH'}",
        f"- python: {platform.python_version()}; fixture server: {args.base} (no TCP_NODELAY, "
        f"headers and body in separate writes, as common servers do), "
        f"{args.base_nodelay or 'no second one'} (`--nodelay`), {args.base_tls or 'no https one'} "
        f"(https, TLS 1.3 with session tickets, a private CA passed to both sides with `--cacert`); "
        f"django-oauth-toolkit: {args.dot or args.dot_note}",
        f"- https `--nodelay` fixture: {args.base_tls_nodelay or 'none'}; trust stores: `--cacert` (the fixture's "
        f"CA alone) unless a row says otherwise; system store rows: {args.cert_dir or 'not run'} (a hashed copy of "
        f"{SYSTEM_CERT_DIR} + the CA), {args.cert_file or 'not run'} ({SYSTEM_BUNDLE} + the CA)",
        f"- method: {args.runs} timed runs per side, alternating, after {args.warmup} warm-up runs each; "
        f"each run checked; peak RSS over {args.rss_runs} runs via {rss_tool}",
        "",
    ]


def measure(args, bench, lines):
    """Appends to `lines` as it goes, so a failure still prints what ran."""
    authcode = args.authcode
    static = args.static_binary
    curl_version = Bench.version("curl", "curl --version", b"curl ")
    curl_flow = bench.curl_flow()

    # Time.
    lines += [
        "### Time (ms, wall clock per process, lower is better)",
        "",
        "| measure | A | median | min | max | baseline B | median | min | max | A/B | target | |",
        "|---|---|--:|--:|--:|---|--:|--:|--:|--:|---|---|",
    ]
    log("flow: authcode vs curl-flow.sh (server without TCP_NODELAY)")
    a, b = bench.alternate(bench.authcode_flow(authcode), curl_flow)
    lines.append(timing_row("flow (direct 302, PKCE S256, Basic)", "authcode", a, "curl-flow.sh", b, FLOW_RATIO_TARGET))
    nodelay = args.base_nodelay
    if nodelay:
        log("flow: authcode vs curl-flow.sh (server with --nodelay)")
        a, b = bench.alternate(bench.authcode_flow(authcode, base=nodelay), bench.curl_flow(nodelay))
        lines.append(timing_row("flow, `--nodelay` server", "authcode", a, "curl-flow.sh", b, FLOW_RATIO_TARGET))
    tls = args.base_tls
    if tls:
        log("flow over https: authcode vs curl-flow.sh (server without TCP_NODELAY)")
        a, b = bench.alternate(bench.authcode_flow(authcode, base=tls, cacert=args.cacert),
                               bench.curl_flow(tls, cacert=args.cacert))
        lines.append(timing_row("flow over https (TLS 1.3, `--cacert`)", "authcode", a, "curl-flow.sh", b,
                                FLOW_RATIO_TARGET))
    tls_nodelay = args.base_tls_nodelay
    if tls and tls_nodelay:
        log("flow over https: authcode vs curl-flow.sh (server with --nodelay)")
        a, b = bench.alternate(bench.authcode_flow(authcode, base=tls_nodelay, cacert=args.cacert),
                               bench.curl_flow(tls_nodelay, cacert=args.cacert))
        lines.append(timing_row("flow over https, `--nodelay` server", "authcode", a, "curl-flow.sh", b,
                                FLOW_RATIO_TARGET))
        log("flow over https: authcode without TCP_NODELAY vs with (the session-ticket stall)")
        a, b = bench.alternate(bench.authcode_flow(authcode, base=tls, cacert=args.cacert),
                               bench.authcode_flow(authcode, base=tls_nodelay, cacert=args.cacert))
        lines.append(timing_row("flow over https: server without TCP_NODELAY (A) / with (B)", "authcode", a,
                                "authcode", b, NAGLE_RATIO_TARGET))
    log("startup: authcode --version vs curl --version")
    a, b = bench.alternate(Bench.version(authcode, "authcode --version", b"authcode "), curl_version)
    lines.append(timing_row("startup (`--version`)", "authcode", a, "curl", b, STARTUP_RATIO_TARGET))
    log("walk: authcode vs curl-walk.sh (server without TCP_NODELAY)")
    a, b = bench.alternate(bench.authcode_flow(authcode, scenario="login-consent", walk=True), bench.curl_walk())
    lines.append(timing_row("walk (login + consent, cookies)", "authcode", a, "curl-walk.sh", b))
    if nodelay:
        log("walk: authcode vs curl-walk.sh (server with --nodelay)")
        a, b = bench.alternate(bench.authcode_flow(authcode, scenario="login-consent", walk=True, base=nodelay),
                               bench.curl_walk(nodelay))
        lines.append(timing_row("walk, `--nodelay` server", "authcode", a, "curl-walk.sh", b))
    if args.dot:
        log("django-oauth-toolkit: authcode vs curl-dot.sh")
        a, b = bench.alternate(bench.authcode_dot(authcode, args.dot), bench.curl_dot(args.dot))
        lines.append(timing_row("walk, django-oauth-toolkit (default flags: POST, 403, GET; login + consent)",
                                "authcode", a, "curl-dot.sh", b))
    if static:
        log("static stdlib: flow and startup")
        a, b = bench.alternate(bench.authcode_flow(static, label="authcode (static)"), curl_flow)
        lines.append(timing_row("flow, static stdlib", "authcode-static", a, "curl-flow.sh", b, FLOW_RATIO_TARGET))
        a, b = bench.alternate(Bench.version(static, "authcode (static) --version", b"authcode "), curl_version)
        lines.append(timing_row("startup, static stdlib", "authcode-static", a, "curl", b, STARTUP_RATIO_TARGET))
    lines += [
        "",
        "A/B = authcode median / baseline median (below 1: authcode is faster). Rows without",
        "`--nodelay` use a server that, like Python's http.server, Django's runserver and many",
        "embedded servers, sets no TCP_NODELAY: a client that delays its ACKs waits ~40 ms per",
        "response on a kept-alive connection (the curl scripts open a connection per request).",
        "Over https a TLS 1.3 server sends its session tickets in writes of their own after the",
        "handshake, and the answer waits behind them the same way: authcode ACKs every TLS",
        "record at once (TCP_QUICKACK), the A/B row without and with TCP_NODELAY shows the rest.",
        "Every https row trusts the fixture's private CA through `--cacert` (one certificate).",
        "" if args.dot else f"django-oauth-toolkit row: {args.dot_note}.",
        "",
    ]
    if tls:
        trust_rows(args, bench, lines)

    # Memory.
    log("peak RSS")

    def rss(command):
        return [bench.peak_rss_kib(command) for _ in range(args.rss_runs)]

    lines += [
        "### Peak RSS (MiB)",
        "",
        "| measure | A | median | max | baseline B | median | max | A/B | target | |",
        "|---|---|--:|--:|---|--:|--:|--:|---|---|",
    ]
    plain_flow = rss(bench.authcode_flow(authcode))
    lines.append(rss_row("one flow (direct)", "authcode", plain_flow,
                        "curl-flow.sh", rss(curl_flow), FLOW_RSS_TARGET_MIB))
    tls_flow = None
    if tls:
        tls_flow = rss(bench.authcode_flow(authcode, base=tls, cacert=args.cacert))
        lines.append(rss_row("one flow over https", "authcode", tls_flow,
                             "curl-flow.sh", rss(bench.curl_flow(tls, cacert=args.cacert))))
    lines.append(rss_row("one walk (login-consent)", "authcode",
                        rss(bench.authcode_flow(authcode, scenario="login-consent", walk=True)),
                        "curl-walk.sh", rss(bench.curl_walk())))
    lines.append(rss_row("`--version`", "authcode", rss(Bench.version(authcode, "authcode --version", b"authcode ")),
                        "curl", rss(curl_version)))
    if static:
        lines.append(rss_row("one flow, static stdlib", "authcode-static",
                            rss(bench.authcode_flow(static, label="authcode (static)")),
                            "curl-flow.sh", rss(curl_flow), FLOW_RSS_TARGET_MIB))
    lines += [
        "",
        "For a script, peak RSS is that of its largest single process (curl, openssl or bash),",
        "not the sum of the pipeline. The RSS target is judged on the max.",
    ]
    if tls_flow:
        extra = (max(tls_flow) - max(plain_flow)) / 1024
        lines.append(f"One authcode flow over https against one over plain http (max of each): "
                     f"{extra:+.1f} MiB; target ≤ +{TLS_RSS_EXTRA_TARGET_MIB:g} MiB: "
                     f"{verdict(extra <= TLS_RSS_EXTRA_TARGET_MIB)}.")
    lines.append("")

    # Memory against answers near the body limit (ARCHITECTURE "Security rules").
    log("peak RSS, large answers")
    lines += [
        "### Peak RSS with answers near the 4 MiB body limit (MiB)",
        "",
        "| answer (3.96 MiB, `Fixtures/server/large.py`) | run | median | max | target | |",
        "|---|---|--:|--:|---|---|",
    ]
    for scenario, what in LARGE_ANSWERS:
        kib = rss(bench.authcode_large(authcode, scenario))
        lines.append(large_rss_row(what, "one flow", kib, LARGE_FLOW_RSS_TARGET_MIB))
    for scenario, what in LARGE_ANSWERS:
        if scenario in LARGE_BATCHES:
            kib = rss(bench.authcode_large(authcode, scenario, records=8))
            lines.append(large_rss_row(what, "`--users` 8 records, `--parallel 8`", kib, LARGE_BATCH_RSS_TARGET_MIB))
    lines += [
        "",
        "Every run with `-v` (the redactor scrubs each trace line). Before secrets were kept as a",
        "length and a hash per long form (Core/Redaction/LongFormSet.swift), a trie of every form",
        "of the tokens took one such flow to 180–362 MiB and a batch of eight past 1 GiB.",
        "",
    ]

    # Size.
    size, stripped = file_size(authcode)
    rows = [f"| {linkage(authcode)} (`{shown(authcode)}`) | {size} | {stripped} |"]
    if static:
        size, stripped = file_size(static)
        rows.append(f"| `--static-swift-stdlib` (`{shown(static)}`) | {size} | {stripped} |")
    else:
        rows.append(f"| `--static-swift-stdlib` | {args.static_note} | |")
    lines += [
        "### Release binary size",
        "",
        "| build | file | stripped |",
        "|---|--:|--:|",
    ] + rows + [
        "",
        layout_freshness(authcode),
        "",
        f"Load average at end: {load_average()}.",
    ]
    return lines


def cpu_row(name, a_label, a, b_label, b, target=None):
    a_med, b_med = statistics.median(a), statistics.median(b)
    ratio = a_med / b_med
    target_cell = f"≤ {target:g}×" if target is not None else "—"
    result = verdict(ratio <= target) if target is not None else ""
    return (f"| {name} | {a_label} | {ms(a_med)} | {ms(min(a))} | {b_label} | {ms(b_med)} | {ms(min(b))} "
            f"| {ratio:.2f} | {target_cell} | {result} |")


def trust_rows(args, bench, lines):
    """One https flow with each trust store, CPU time (ARCHITECTURE "TLS
    trust"): the system's hashed directory against a one-certificate
    --cacert, the system's bundle given by file, and a check that a run
    with no store named never opens the bundle file."""
    authcode, tls, cacert = args.authcode, args.base_tls, args.cacert
    one_ca = bench.authcode_flow(authcode, label="authcode --cacert", base=tls, cacert=cacert)
    lines += [
        "### TLS trust: one https flow per store (CPU ms per process, user + system)",
        "",
        "| measure | A | median | min | B | median | min | A/B | target | |",
        "|---|---|--:|--:|---|--:|--:|--:|---|---|",
    ]
    if args.cert_dir:
        log("trust: the system's hashed directory (+ the test CA) vs --cacert")
        bench.alternate(bench.authcode_flow(authcode, label="authcode SSL_CERT_DIR", base=tls,
                                            env={"SSL_CERT_DIR": args.cert_dir}), one_ca)
        a, b = bench.cpu.values()
        lines.append(cpu_row("system store: hashed directory of the system's certificates + the test CA "
                             "(`SSL_CERT_DIR`)", "authcode", a, "`--cacert` (one certificate)", b, SYSTEM_STORE_CPU_TARGET))
    if args.cert_file:
        log("trust: the system's bundle (+ the test CA) by SSL_CERT_FILE vs --cacert")
        bench.alternate(bench.authcode_flow(authcode, label="authcode SSL_CERT_FILE", base=tls,
                                            env={"SSL_CERT_FILE": args.cert_file}), one_ca)
        a, b = bench.cpu.values()
        lines.append(cpu_row("the system's bundle as a file (`SSL_CERT_FILE`, parsed once per process)",
                             "authcode", a, "`--cacert` (one certificate)", b))
    lines += ["", f"Default run: {default_store_check(args, bench)}", ""]


def default_store_check(args, bench):
    """A run with no store named, under strace: which certificate files it
    opened. Its trust is the system's, which lacks the fixture's CA, so the
    run ends with exit 3; what counts is that the bundle stays closed."""
    strace = shutil.which("strace")
    if not strace:
        return "not checked (no strace; `apt-get install -y strace`)."
    if not os.path.isdir(SYSTEM_CERT_DIR):
        return f"not checked (no {SYSTEM_CERT_DIR})."
    trace = os.path.join(bench.tmp.name, "default.strace")
    command = bench.authcode_flow(args.authcode, base=args.base_tls)
    argv, _ = command.argv(bench)
    completed = subprocess.run([strace, "-f", "-qq", "-e", "trace=open,openat,openat2", "-o", trace] + argv,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    with open(trace, errors="replace") as handle:
        opened = re.findall(r'"([^"]*)"', handle.read())
    bundles = sorted({path for path in opened if path.endswith(".crt") or path.endswith("/cert.pem")})
    looked_up = SYSTEM_CERT_DIR in opened
    ok = completed.returncode == 3 and not bundles and looked_up
    said = "opened " + ", ".join(bundles) if bundles else "no bundle file opened"
    return (f"{SYSTEM_CERT_DIR} looked up: {'yes' if looked_up else 'no'}; {said} (strace, exit "
            f"{completed.returncode}); target: never opens the bundle: {verdict(ok)}.")


def layout_freshness(binary):
    """How much of Fixtures/layout/hot-functions.txt the binary still
    defines: a list gone stale only costs memory, and this says when to run
    Fixtures/layout/record.sh again."""
    listed = os.path.join(os.path.dirname(HERE), "layout", "hot-functions.txt")
    nm = shutil.which("nm")
    if not nm or not os.path.isfile(listed):
        return "Hot-function layout: not checked (no nm or no list)."
    defined = set()
    for line in subprocess.run([nm, "--defined-only", binary], capture_output=True, text=True).stdout.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "tTwW":
            defined.add(parts[2])
    with open(listed) as handle:
        names = [name.strip() for name in handle if name.strip()]
    found = sum(1 for name in names if name in defined)
    return (f"Hot-function layout (`Fixtures/layout/hot-functions.txt`): {found} of {len(names)} listed functions "
            f"are in this binary ({found / max(1, len(names)) * 100:.0f}%; the rest are the loader's and libc's, or "
            "stale: re-record with `make layout` when this falls).")


def linkage(binary):
    """`make build` links the Swift runtime statically: say which this is."""
    try:
        libs = subprocess.run(["ldd", binary], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return "release"
    return "dynamic Swift runtime" if "libswiftCore" in libs else "static Swift runtime"


if __name__ == "__main__":
    sys.exit(main())
