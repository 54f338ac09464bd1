#!/usr/bin/env python3
"""Batch and cache rows of `make bench` (the many-users and token-lifecycle
numbers), on the fixture server run.sh started:

    lifecycle.py --authcode BIN --base http://127.0.0.1:PORT [--server-pid PID]
                 [--records N] [--big-records N] [--curl-runs N]
                 [--base-tls https://127.0.0.1:PORT2 --cacert CA.pem]
                 [--base-nodelay http://… --base-tls-nodelay https://…]
                 [--cert-dir DIR] [--cert-file FILE]
                 [--tls-records N] [--tls-parallel N] [--tls-rounds N] [--only tls]

Rows:
- batch: `authcode --users` with N records (default 1,000) and
  `--parallel 16` on the login + consent walk, per-token wall time against
  a sequential loop of curl-walk.sh (the script people write today), with
  tokens/s at several --parallel values and the fixture's own CPU use, which
  shows where the server (one Python process) is the limit;
- batch memory: peak RSS for N and 10×N records;
- cache: a hit against `authcode --version` (medians of alternating runs),
  and 16 runs started together with an empty cache: how many codes the
  fixture redeemed (the goal is exactly one);
- http against https (with --base-tls): the same batch (default 1,000 users,
  `--parallel 8`) over each, alternating, a few rounds: tokens/s, authcode's
  own CPU per token (user + system time of the process from wait4, divided
  by the tokens), the https server's count of full and resumed TLS
  handshakes for the batch's run (Fixtures/server/tls_stats.py), peak RSS;
  https once per trust store: `--cacert` (one certificate), the system's
  hashed directory with the test CA (SSL_CERT_DIR=--cert-dir) and the
  system's bundle with it (SSL_CERT_FILE=--cert-file);
- libcurl alone (curl-tls-floor.c) on the --nodelay servers, with as many
  requests per flow as authcode's batch made per token: what TLS adds to a
  bare libcurl client's CPU, beside what it adds to authcode's.

Markdown goes to stdout, progress to stderr. Exit 0 when everything ran
(whatever the numbers), 1 when something could not run. Standard library
only.
"""
import argparse
import json
import os
import shutil
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
CURL_WALK = os.path.join(HERE, "curl-walk.sh")
TLS_FLOOR = os.path.join(HERE, "curl-tls-floor.c")
REDIRECT_URI = "http://127.0.0.1:8765/callback"
CLIENT_ID, CLIENT_SECRET = "demo-app", "demo-secret"
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class BenchError(Exception):
    pass


def log(message):
    print(f"lifecycle: {message}", file=sys.stderr, flush=True)


def environment():
    """Without AUTHCODE_* options, proxies and OpenSSL's certificate variables
    (the trust rows set SSL_CERT_DIR / SSL_CERT_FILE themselves)."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith("AUTHCODE_") and k.lower() not in ("http_proxy", "https_proxy", "all_proxy", "no_proxy")
            and k not in ("SSL_CERT_FILE", "SSL_CERT_DIR")}


ENV = environment()


def timed(argv, env=None):
    """(wall seconds, stdout, stderr, exit code) of one child."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=env or ENV)
    out, err = process.communicate()
    return time.perf_counter() - started, out, err, process.returncode


def peak_rss_kib(argv):
    """Runs argv under wait4 to read its own ru_maxrss (KiB on Linux)."""
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=ENV)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    err = process.stderr.read()
    if process.returncode != 0:
        raise BenchError(f"{argv[0]} failed (exit {process.returncode}): {err[-400:]!r}")
    return usage.ru_maxrss


def server_cpu_seconds(pid):
    """User + system CPU of the fixture process so far, from /proc."""
    if not pid:
        return None
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


class Lifecycle:
    def __init__(self, args):
        self.args = args
        self.base = args.base.rstrip("/")
        self.tmp = tempfile.mkdtemp(prefix="authcode-lifecycle-")
        self.counter = 0
        self.secret = self.write("secret", CLIENT_SECRET + "\n")
        self.opener = _NO_PROXY
        if args.cacert:  # the https fixture's private CA, for /_stats
            context = ssl.create_default_context(cafile=args.cacert)
            self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                                      urllib.request.HTTPSHandler(context=context))

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as handle:
            handle.write(text)
        return path

    def run_id(self, kind):
        self.counter += 1
        return f"lifecycle-{kind}-{self.counter}"

    def issuer(self, run_id, scenario, base=None):
        return f"{base or self.base}/t/{run_id}/{scenario}"

    def stats(self, run_id, base=None):
        with self.opener.open(f"{base or self.base}/_stats/{run_id}", timeout=10) as response:
            return json.load(response)

    def users_file(self, count):
        path = os.path.join(self.tmp, f"users-{count}.csv")
        if not os.path.exists(path):
            with open(path, "w") as handle:
                handle.write("username,password\n")
                for n in range(1, count + 1):
                    handle.write(f"user{n},pw-{n}\n")
        return path

    def batch_argv(self, records, parallel, scenario="login-consent", base=None, run_id=None, cacert=True):
        """`cacert`: an https batch trusts the fixture's CA by `--cacert`
        (False: the store comes from the environment)."""
        issuer = self.issuer(run_id or self.run_id("batch"), scenario, base)
        argv = [self.args.authcode, "--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token",
                "--client-id", CLIENT_ID, "--client-secret", "@" + self.secret, "--redirect-uri", REDIRECT_URI,
                "--scope", "profile", "--users", self.users_file(records), "--parallel", str(parallel)]
        if issuer.startswith("https:") and cacert:
            argv += ["--cacert", self.args.cacert]
        return argv

    # -- rows --

    def curl_loop(self):
        """Mean seconds per token of curl-walk.sh run one after another."""
        times = []
        for n in range(1, self.args.curl_runs + 1):
            password = self.write(f"pw-{n}", f"pw-{n}\n")
            env = dict(ENV, USERNAME=f"user{n}")
            seconds, out, err, code = timed([CURL_WALK, self.issuer(self.run_id("curl"), "login-consent"), password], env=env)
            if code != 0 or b"access_token" not in out:
                raise BenchError(f"curl-walk.sh failed (exit {code}): {err[-400:]!r}")
            times.append(seconds)
        return statistics.mean(times)

    def batch(self, records, parallel):
        """(seconds, tokens) of one batch, and the fixture's CPU seconds."""
        before = server_cpu_seconds(self.args.server_pid)
        seconds, out, err, code = timed(self.batch_argv(records, parallel))
        after = server_cpu_seconds(self.args.server_pid)
        tokens = out.count(b'"token":')
        if code != 0 or tokens != records:
            raise BenchError(f"batch of {records} failed (exit {code}, {tokens} tokens): {err[-400:]!r}")
        cpu = after - before if before is not None and after is not None else None
        return seconds, cpu

    def measured_batch(self, base, trust=None):
        """One batch on `base`, waited for with wait4: wall seconds, the
        process's own CPU seconds (user + system), peak RSS (KiB) and the
        server's counters for the batch's run. `trust`: variables naming the
        trust store instead of `--cacert`."""
        records, parallel = self.args.tls_records, self.args.tls_parallel
        run_id = self.run_id("tls" if base.startswith("https:") else "plain")
        argv = self.batch_argv(records, parallel, base=base, run_id=run_id, cacert=trust is None)
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            started = time.perf_counter()
            process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=dict(ENV, **(trust or {})))
            _, status, usage = os.wait4(process.pid, 0)
            seconds = time.perf_counter() - started
            process.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            tokens = out.read().count(b'"token":')
            if process.returncode != 0 or tokens != records:
                raise BenchError(f"batch of {records} on {base} failed (exit {process.returncode}, "
                                 f"{tokens} tokens): {err.read()[-400:]!r}")
        return {"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss,
                "tokens": tokens, "stats": self.stats(run_id, base)}

    def tls_kinds(self):
        """The batches of the https rows: (label, base, trust variables or
        None for `--cacert`), http first."""
        args = self.args
        kinds = [("http", self.base, None), ("https, `--cacert` (one certificate)", args.base_tls, None)]
        if args.cert_dir:
            kinds.append(("https, system store: hashed directory + the test CA (`SSL_CERT_DIR`)", args.base_tls,
                          {"SSL_CERT_DIR": args.cert_dir}))
        if args.cert_file:
            kinds.append(("https, the system's bundle + the test CA (`SSL_CERT_FILE`)", args.base_tls,
                          {"SSL_CERT_FILE": args.cert_file}))
        return kinds

    def tls_rows(self):
        """http and https batches (one per trust store) alternating, the
        order reversed every round; medians over the rounds."""
        args = self.args
        kinds = self.tls_kinds()
        runs = {label: [] for label, _, _ in kinds}
        for round_ in range(args.tls_rounds):
            for label, base, trust in (kinds if round_ % 2 == 0 else kinds[::-1]):
                log(f"batch of {args.tls_records}: {label}, --parallel {args.tls_parallel} "
                    f"(round {round_ + 1} of {args.tls_rounds})")
                runs[label].append(self.measured_batch(base, trust))
        lines = ["", f"## Over https: {args.tls_records} users, `--parallel {args.tls_parallel}`, login + consent", "",
                 "| transport and trust store | tokens/s | authcode CPU per token | TLS handshakes: full / resumed (each round) "
                 "| resumed after the first {0} | peak RSS |".format(args.tls_parallel),
                 "|---|---:|---:|---|---:|---:|"]
        cpu = {}
        resumed_share = None
        for label, base, _ in kinds:
            rounds = runs[label]
            cpu[label] = statistics.median(r["cpu"] / r["tokens"] for r in rounds)
            rate = statistics.median(r["tokens"] / r["seconds"] for r in rounds)
            rss = max(r["rss"] for r in rounds)
            if base.startswith("https:"):
                counts = [(r["stats"].get("tls_full", 0), r["stats"].get("tls_resumed", 0)) for r in rounds]
                hands = ", ".join(f"{full} / {resumed}" for full, resumed in counts)
                shares = [resumed / max(1, full + resumed - args.tls_parallel) for full, resumed in counts]
                resumed_share = min(shares + ([resumed_share] if resumed_share is not None else []))
                share = f"{min(shares) * 100:.0f}% (lowest round)"
            else:
                hands, share = "— (no TLS)", "—"
            lines.append(f"| {label} | {rate:.0f} | {cpu[label] * 1000:.2f} ms | {hands} | {share} | {rss / 1024:.1f} MiB |")
        http, https = kinds[0][0], kinds[1][0]
        ratio = cpu[https] / cpu[http]
        lines += ["", f"Medians of {args.tls_rounds} rounds, the order reversed every round; CPU is authcode's own "
                  "(user + system, from wait4), handshakes are counted by the https fixture for the batch's run. "
                  f"CPU per token https / http: {ratio:.2f}× (informational, see README); "
                  f"resumed TLS sessions after the first {args.tls_parallel} handshakes: "
                  f"{resumed_share * 100:.0f}% (target ≥ 80%: {'PASS' if resumed_share >= 0.8 else 'MISS'})."]
        for label, _, trust in kinds[2:]:
            store = cpu[label] / cpu[https]
            target = 1.10 if "SSL_CERT_FILE" in (trust or {}) else 1.15
            lines.append(f"{label} against `--cacert`: {store:.2f}× CPU per token "
                         f"(target ≤ {target:.2f}×: {'PASS' if store <= target else 'MISS'}).")
        lines.append("")
        requests = self.requests_per_token(runs[http])
        floor = self.libcurl_floor(requests)
        if floor:
            added, floor_added = (cpu[https] - cpu[http]) * 1000, floor[1] - floor[0]
            lines += [f"libcurl and OpenSSL alone (`curl-tls-floor.c`, on the `--nodelay` fixtures so that no "
                      f"Nagle wait inflates its CPU: {requests} requests on a fresh easy handle per flow, as many as "
                      f"authcode's flow made, TLS sessions shared, the CA file read by libcurl): {floor[0]:.2f} ms of "
                      f"CPU per flow over http, {floor[1]:.2f} ms over https. TLS adds {added:.2f} ms per token to "
                      f"authcode and {floor_added:.2f} ms per flow to libcurl alone (target: no more than libcurl "
                      f"alone: {'PASS' if added <= floor_added else 'MISS'}).", ""]
        return lines

    def requests_per_token(self, rounds):
        """Requests authcode's batch made per token, counted by the fixture."""
        counts = [r["stats"].get("requests", 0) / r["tokens"] for r in rounds if r["tokens"]]
        return max(1, round(statistics.median(counts))) if counts else 4

    def libcurl_floor(self, requests):
        """CPU per flow of a C loop over libcurl, http and https, on the
        --nodelay fixtures (the default ones without them); None without a
        C compiler or libcurl headers."""
        compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        if not compiler:
            return None
        binary = os.path.join(self.tmp, "curl-tls-floor")
        if subprocess.run([compiler, "-O2", TLS_FLOOR, "-o", binary, "-lcurl"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode != 0:
            return None
        log(f"libcurl alone: 300 flows of {requests} requests over http and over https")
        results = []
        bases = ((self.args.base_nodelay or self.base, ""), (self.args.base_tls_nodelay or self.args.base_tls, self.args.cacert))
        for base, cacert in bases:
            url = f"{base}/t/{self.run_id('floor')}/direct/cb"
            done = subprocess.run([binary, url, cacert, "300", str(requests)], capture_output=True, text=True, env=ENV)
            if done.returncode != 0:
                raise BenchError(f"curl-tls-floor failed: {done.stderr[-300:]!r}")
            results.append(float(done.stdout))
        return results

    def cache_hit_vs_version(self, rounds=30):
        run_id = self.run_id("cache")
        issuer = self.issuer(run_id, "direct")
        cache_dir = os.path.join(self.tmp, "cache-hit")
        flow = [self.args.authcode, "--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token",
                "--client-id", "public-app", "--redirect-uri", REDIRECT_URI, "--cache", "--cache-dir", cache_dir]
        _, out, err, code = timed(flow)
        if code != 0:
            raise BenchError(f"first cached flow failed: {err[-400:]!r}")
        before = self.stats(run_id)["requests"]
        hits, versions = [], []
        for _ in range(3):
            timed(flow), timed([self.args.authcode, "--version"])
        for _ in range(rounds):
            hits.append(timed(flow)[0])
            versions.append(timed([self.args.authcode, "--version"])[0])
        if self.stats(run_id)["requests"] != before:
            raise BenchError("a cache hit made a request")
        return statistics.median(hits), statistics.median(versions)

    def stampede(self, runs=16):
        run_id = self.run_id("stampede")
        issuer = self.issuer(run_id, "direct")
        cache_dir = os.path.join(self.tmp, "cache-stampede")
        flow = [self.args.authcode, "--authorize-url", issuer + "/authorize", "--token-url", issuer + "/token",
                "--client-id", "public-app", "--redirect-uri", REDIRECT_URI, "--cache", "--cache-dir", cache_dir]
        processes = [subprocess.Popen(flow, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV) for _ in range(runs)]
        outputs = [p.communicate() for p in processes]
        if any(p.returncode != 0 for p in processes):
            raise BenchError(f"a stampede run failed: {outputs[0][1][-400:]!r}")
        distinct = len({out for out, _ in outputs})
        return self.stats(run_id)["codes_redeemed"], distinct

    def report(self):
        args = self.args
        tls = self.tls_rows() if args.base_tls else []
        if args.only == "tls":
            return "\n".join(tls)
        lines = ["", "## Many users and token reuse", ""]
        log(f"sequential curl-walk.sh, {args.curl_runs} runs")
        curl = self.curl_loop()
        lines += ["| --parallel | wall time for {} tokens | tokens/s | per token | vs curl-walk.sh loop | fixture CPU/wall |".format(args.records),
                  "|---:|---:|---:|---:|---:|---:|"]
        for parallel in (1, 4, 16, 32):
            log(f"batch of {args.records}, --parallel {parallel}")
            seconds, cpu = self.batch(args.records, parallel)
            per = seconds / args.records
            load = f"{cpu / seconds:.2f}" if cpu is not None else "n/a"
            lines.append(f"| {parallel} | {seconds:.2f} s | {args.records / seconds:.0f} | {per * 1000:.2f} ms | "
                         f"{per / curl:.3f}× | {load} |")
        lines += ["", f"Sequential loop of curl-walk.sh: {curl * 1000:.1f} ms per token (mean of {args.curl_runs}). "
                  "Target: per-token ≤ 0.1× at --parallel 16 (goal 0.05×). A fixture CPU/wall near 1.0 means the "
                  "fixture (one Python process, one core under its lock) is the limit, not authcode.", ""]
        lines += ["| records | peak RSS |", "|---:|---:|"]
        for records in (args.records, args.big_records):
            log(f"peak RSS of a batch of {records}")
            rss = peak_rss_kib(self.batch_argv(records, 16))
            lines.append(f"| {records} | {rss / 1024:.1f} MiB |")
        lines += ["", "Targets: ≤ 64 MiB for 1,000 records; 10,000 records ≤ 1.5× that.", ""]
        log("cache hit vs --version")
        hit, version = self.cache_hit_vs_version()
        log("16 runs together with an empty cache")
        redeemed, distinct = self.stampede()
        lines += ["| cache row | result | target |", "|---|---:|---:|",
                  f"| cache hit (median of 30) | {hit * 1000:.1f} ms = {hit / version:.2f}× `--version` ({version * 1000:.1f} ms) | ≤ 1.5× |",
                  f"| 16 runs started together, empty cache | {redeemed} code(s) redeemed, {distinct} distinct output(s) | exactly 1 |", ""]
        return "\n".join(lines + tls)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--authcode", required=True)
    parser.add_argument("--base", required=True)
    parser.add_argument("--server-pid", type=int)
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--big-records", type=int, default=10000)
    parser.add_argument("--curl-runs", type=int, default=20)
    parser.add_argument("--base-tls", help="the fixture over https (same flags as --base otherwise)")
    parser.add_argument("--cacert", help="the CA of --base-tls")
    parser.add_argument("--base-nodelay", help="the fixture with --nodelay (for libcurl alone)")
    parser.add_argument("--base-tls-nodelay", help="the https fixture with --nodelay (for libcurl alone)")
    parser.add_argument("--cert-dir", help="a hashed copy of the system's certificates with the test CA")
    parser.add_argument("--cert-file", help="the system's CA bundle with the test CA appended")
    parser.add_argument("--tls-records", type=int, default=1000)
    parser.add_argument("--tls-parallel", type=int, default=8)
    parser.add_argument("--tls-rounds", type=int, default=3)
    parser.add_argument("--only", choices=["tls"], help="only the http/https rows")
    args = parser.parse_args()
    if bool(args.base_tls) != bool(args.cacert) or (args.only and not args.base_tls):
        parser.error("--base-tls and --cacert go together; --only tls needs them")
    bench = Lifecycle(args)
    try:
        print(bench.report(), flush=True)
    except (BenchError, OSError) as error:
        print(f"lifecycle: {error}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(bench.tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
