#!/usr/bin/env python3
"""benches/hostile.py [BIN]: issue 36's hostile cases, re-run as written,
against a muster binary (default target/release/muster), each as a whole
process under a 2 GB address-space limit and a 10-second timer, as the
issue ran them. For each case: exit status, CPU seconds (user + system),
peak memory (MiB), bytes printed, and the first line that says what was
refused. The goal is under 1 s of CPU and under 100 MB each.

Run from the repository after `cargo build --release`. The cases are built
in a temporary folder from the repository's own test files, so the script
needs nothing else.
"""

import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import zipfile

BIN = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else "target/release/muster")
LEGAL = "tests/rosters/netea/feral-orks/legal-3000.txt"
LIST = "lists/netea/feral-orks.yaml"
CLUB = "tests/events/club-3000.yaml"
ROSTER_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<roster name="r" gameSystemName="Epic Armageddon" '
    'xmlns="http://www.battlescribe.net/schema/rosterSchema"><forces>'
    '<force name="Army" catalogueName="Codex Astartes"/>'
)


def limit():
    two_gb = 2 << 30
    resource.setrlimit(resource.RLIMIT_AS, (two_gb, two_gb))


def run(args, stdin=None):
    """One process: (status, cpu seconds, peak MiB, bytes out, first line)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.run(
            [BIN, *args],
            input=stdin,
            capture_output=True,
            timeout=10,
            preexec_fn=limit,
            env={**os.environ, "NO_COLOR": "1"},
        )
        status, out = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as timeout:
        status, out = "timeout", (timeout.stdout or b"") + (timeout.stderr or b"")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # ru_maxrss of the children is the largest of any child so far, so
    # each case runs from a fresh interpreter (see main).
    return status, cpu, after.ru_maxrss / 1024, len(out), out


def said(out, words):
    text = out.decode("utf-8", "replace")
    for line in text.splitlines():
        if any(w in line for w in words):
            return line.strip()[:90]
    return text.splitlines()[0][:90] if text else ""


def rosz(xml):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("roster.ros", xml)
    return buf.getvalue()


def amplifying_yaml():
    leaf = "[" * 61 + "1," * 8000 + "1"
    close = "]" * 61
    parts, size = ["name: ["], 7
    while size < (1 << 20) - len(leaf) - 200:
        parts += [leaf, close, ","]
        size += len(leaf) + len(close) + 1
    parts.append("1]\n")
    return "".join(parts)


def cases(tmp):
    """(name, args, stdin, words that name the refusal)"""
    w = lambda name, data: write(tmp, name, data)
    # Both files end without a line break.
    lst = open(LIST).read() + "\n"
    club = open(CLUB).read() + "\n"
    out = []
    # 1. A duplicate key after a tab, and after U+2028 / U+2029 / NEL.
    for tag, sep in [("tab", "id:\tsteel-legion\n"), ("U+2028", "id: steel-legion\u2028\n"),
                     ("U+2029", "id: steel-legion\u2029\n"), ("NEL", "id: steel-legion\u0085\n")]:
        d = os.path.join(tmp, "dup-" + tag.replace("+", ""))
        os.makedirs(d)
        w(os.path.join(d, "feral-orks.yaml"), lst + sep)
        out.append((f"1 duplicate id: after {tag}", ["--lists", d, "lists", "--check"], None,
                    ["error"]))
    for tag, sep in [("tab", "points:\t1000\n"), ("U+2028", "points: 1000\u2028\n")]:
        ev = w(f"dup-points-{tag}.yaml", club + sep)
        out.append((f"1 second points: in an event, {tag}", ["check", "--event", ev, LEGAL], None,
                    ["error"]))
    # 2. 1 MiB of flow sequences 62 deep; three of them in a --lists folder.
    amp = amplifying_yaml()
    ev = w("amplify.yaml", amp)
    out.append(("2 1 MiB 62-deep YAML event", ["check", "--event", ev, LEGAL], None, ["values"]))
    d = os.path.join(tmp, "amplify-lists")
    os.makedirs(d)
    for i in range(3):
        w(os.path.join(d, f"{i}.yaml"), amp)
    out.append(("2 three of them in --lists", ["--lists", d, "check", LEGAL], None, ["values"]))
    # 3. 80,000 `[` (and `{`).
    for ch in "[{":
        ev = w(f"deep{ord(ch)}.yaml", "name: " + ch * 80_000 + "\n")
        out.append((f"3 80,000 '{ch}'", ["check", "--event", ev, LEGAL], None, ["deep", "nest"]))
    # 4. 70,000 unknown keys, in an event file and in a list file.
    keys = "".join(f"k{i}: 1\n" for i in range(70_000))
    ev = w("keys.yaml", club + keys)
    out.append(("4 70,000 unknown keys (event)", ["check", "--event", ev, LEGAL], None, ["more findings"]))
    d = os.path.join(tmp, "keys-lists")
    os.makedirs(d)
    w(os.path.join(d, "feral-orks.yaml"), lst + keys)
    out.append(("4 70,000 unknown keys (list)", ["--lists", d, "check", LEGAL], None, ["more findings"]))
    # 5. 130,000 forces of other catalogues in a .rosz.
    xml, seed = [ROSTER_HEAD], 0x2545F4914F6CDD1D
    mask = (1 << 64) - 1
    for _ in range(130_000):
        seed ^= (seed << 13) & mask
        seed ^= seed >> 7
        seed ^= (seed << 17) & mask
        xml.append(f'<force catalogueName="{seed & 0xFFFFFFF:07x}"/>')
    xml.append("</forces></roster>\n")
    path = w("forces.rosz", rosz("".join(xml)))
    out.append((f"5 130,000 forces ({os.path.getsize(path) // 1024} KB .rosz)", ["check", path], None, ["error", "warning"]))
    batch = os.path.join(tmp, "forces-batch")
    os.makedirs(batch)
    shutil.copy(path, batch)
    out.append(("5 the same, folder with --report", ["check", batch, "--report", os.path.join(tmp, "r.html")],
                None, ["forces", "roster"]))
    # 6. Many attributes on one element, plain and zipped.
    xml = ROSTER_HEAD + '<force name="x"' + "".join(f' a{i}="1"' for i in range(75_000)) + "/></forces></roster>\n"
    path = w("attributes.ros", xml)
    out.append((f"6 75,000 attributes ({os.path.getsize(path) // 1024} KB .ros)", ["check", path], None, ["attributes"]))
    path = w("attributes.rosz", rosz(xml))
    out.append(("6 the same zipped (.rosz)", ["check", path], None, ["attributes"]))
    # 7. Escapes and bidi overrides echoed back.
    bad = "x\x1b[2J\u202ey\u2066"
    for args in (["options", bad], ["new", bad], ["import", os.path.join(tmp, bad)]):
        out.append((f"7 escape in {args[0]}", args, None, ["error"]))
    # 8. --pdf over a list file read through --lists.
    d = os.path.join(tmp, "outputs")
    os.makedirs(d)
    target = w(os.path.join(d, "feral-orks.yaml"), lst)
    out.append(("8 --pdf over a list file", ["--lists", d, "roster", LEGAL, "--pdf", target], None, ["list"]))
    # 9. 3,000 formation rules, 1,190 formations.
    event = club.replace("lists:\n", "lists:\n  - id: feral-orks\n", 1)
    event += "".join(
        f'  - id: rule-{i}\n    scope: formation\n    rule: "count(nobz) <= {i % 5}"\n'
        f'    message: "m"\n    provenance: "p"\n' for i in range(3_000))
    ev = w("rules.yaml", event)
    roster = "Army: Snagga-Snagga's Feral Orks\nPoints: 3000\n" + "Wildboyz: 3x Nobz, 3x Two Wildboyz Units\n" * 1_190
    out.append(("9 3,000 rules x 1,190 formations", ["check", "--event", ev, "-"], roster.encode(), ["more"]))
    return out


def write(tmp, name, data):
    path = name if os.path.isabs(name) else os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def main():
    if len(sys.argv) > 2:
        # One case in a fresh interpreter, so that ru_maxrss is its own.
        with open(sys.argv[3]) as f:
            name, args, stdin, words = json.load(f)[int(sys.argv[2])]
        stdin = open(stdin, "rb").read() if stdin else None
        status, cpu, mib, size, out = run(args, stdin)
        print(f"{name:<42} {status!s:>7} {cpu:7.2f} {mib:8.1f} {size:>9}  {said(out, words)}", flush=True)
        return
    tmp = tempfile.mkdtemp(prefix="muster-hostile-")
    try:
        listed = []
        for name, args, stdin, words in cases(tmp):
            if stdin is not None:
                stdin = write(tmp, f"stdin-{len(listed)}", stdin)
            listed.append((name, args, stdin, words))
        manifest = write(tmp, "cases.json", json.dumps(listed))
        print(f"{'case':<42} {'status':>7} {'cpu s':>7} {'peak MiB':>8} {'bytes':>9}  says", flush=True)
        for i in range(len(listed)):
            subprocess.run([sys.executable, __file__, BIN, str(i), manifest], check=False)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
