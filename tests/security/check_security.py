#!/usr/bin/env python3
"""An independent check of zkrv's security calculator (spec/protocol.md, protocol:stark:security,
protocol:fri:security and protocol:stark:policy).

Every term is recomputed here from the formulas as the spec writes them, from the options and
the shape that zkrv reports, and compared with the figures zkrv computes in C++:
  - proofs of a guest made with both presets, as `zkrv verify --json` reports them, under the
    matching policy; the conjectured preset's proof must be rejected by the default policy;
  - both presets at tallest heights 2^16, 2^20 and 2^24, as `zkrv security --json` reports them.
Usage: check_security.py ZKRV GUEST.elf INPUT WORKDIR
"""
import json
import math
import os
import subprocess
import sys

P = 2**64 - 2**32 + 1          # Goldilocks
FIELD_BITS = 3 * math.log2(P)  # lambda_F: the bits of F_{p^3}
HASH_BITS = 128                # Keccak-256's collision resistance caps every figure


def fri_security(log_blowup, queries, pow_bits, log_degree, folds, batch_degree, max_m):
    """protocol:fri:security (BCIKS20 Thm 8.3, Johnson regime, maximised over m in 3..max_m)."""
    log_domain = log_degree + log_blowup
    rho = 2.0 ** -log_blowup
    conjectured = min(queries * log_blowup + pow_bits, FIELD_BITS - log_domain)
    weight = max(batch_degree + folds, 1)
    best = (0.0, 0, 0.0, 0.0)
    for m in range(3, min(max_m, 512) + 1):
        log_commit = (7 * math.log2(m + 0.5) - math.log2(3) - 1.5 * math.log2(rho) + 2 * log_domain - FIELD_BITS
                      + math.log2(weight))
        log_query = queries * math.log2(math.sqrt(rho) * (1 + 0.5 / m)) - pow_bits
        bits = -math.log2(2 ** log_commit + 2 ** log_query)
        if bits > best[0]:
            best = (bits, m, log_commit, log_query)
    return {"conjectured_bits": conjectured, "provable_bits": best[0], "johnson_m": best[1],
            "commit_weight": weight, "log_commit": best[2], "log_query": best[3]}


def stark_security(o, sh):
    """protocol:stark:security for options o and shape sh (the JSON members zkrv prints)."""
    log_max = sh["log_max_height"]
    log_final = min(o["log_final_size"], sh["log_min_height"], log_max - 1)
    batch = (max(sh["opened_values"], 1) - 1) + (max(sh["heights"], 1) - 1)
    # the rate condition for the shortest table, 2 points opened: (1 + 1/2m)^2 >= 1 + 2/h
    m_bound = 1 / (2 * (math.sqrt(1 + 2 / 2 ** sh["log_min_height"]) - 1))
    max_m = 512 if m_bound > 512 else math.ceil(m_bound) - 1  # strictly inside the condition
    fri = fri_security(o["log_blowup"], o["num_queries"], o["pow_bits"], log_max, log_max - log_final, batch, max_m)
    log_ali = math.log2(max(sh["constraints"], 1)) - FIELD_BITS
    log_logup = 2 * sh["log_interactions"] + math.log2(sh["max_arity"] + 1) - FIELD_BITS
    log_deep = math.log2(sh["opened_columns"] + 4) + log_max + o["log_blowup"] + 2 - FIELD_BITS

    def bits(*logs):
        return -math.log2(sum(2 ** l for l in logs))

    conjectured = min(HASH_BITS, bits(-fri["conjectured_bits"], log_ali, log_logup, log_deep))
    out = {"conjectured_bits": conjectured, "hash_cap_bits": HASH_BITS, "log_ali": log_ali, "log_logup": log_logup,
           "log_deep": log_deep, "fri": fri}
    if fri["johnson_m"] == 0:  # no m meets the rate condition
        return dict(out, provable_bits=0, johnson_log_height=64, johnson_holds=False)
    # the Johnson list of the code of rate rho+ = rho (1 + 2/h_min) at FRI's radius
    h_min = 2 ** sh["log_min_height"]
    m_list = 1 / (2 * ((1 + 0.5 / fri["johnson_m"]) / math.sqrt(1 + 2 / h_min) - 1))
    log_list = math.log2(m_list + 0.5) + 0.5 * o["log_blowup"] - 0.5 * math.log2(1 + 2 / h_min)
    provable = min(HASH_BITS, bits(-fri["provable_bits"], log_ali + log_list, log_logup + log_list,
                                   log_deep + log_list))
    slack = (1 + 0.5 / fri["johnson_m"]) ** 2 - 1
    johnson_log_height = math.ceil(math.log2(2 / slack) - 1e-12)
    return dict(out, provable_bits=provable, log_list=log_list, johnson_log_height=johnson_log_height,
                johnson_holds=sh["log_min_height"] >= johnson_log_height)


failures = []


def compare(what, mine, theirs, path=""):
    for key in theirs:
        if key not in mine and key not in ("hash_cap_bits", "log_list"):
            failures.append(f"{what}: zkrv reports {path + key}, which the formulas here do not compute")
    for key, value in mine.items():
        name = path + key
        if key not in theirs:
            failures.append(f"{what}: zkrv does not report {name}")
        elif isinstance(value, dict):
            compare(what, value, theirs[key], name + ".")
        elif isinstance(value, bool) or isinstance(value, int) and not isinstance(theirs[key], float):
            if value != theirs[key]:
                failures.append(f"{what}: {name} is {theirs[key]} in zkrv, {value} from the formulas")
        elif not math.isclose(value, theirs[key], rel_tol=1e-9, abs_tol=1e-9):
            failures.append(f"{what}: {name} is {theirs[key]!r} in zkrv, {value!r} from the formulas")


def run(args, want_rc=0):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != want_rc:
        sys.exit(f"{' '.join(args)}: exit code {r.returncode}, expected {want_rc}\n{r.stdout}{r.stderr}")
    return r.stdout


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    zkrv, elf, inp, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    print(f"{'what':40} {'provable':>9} {'conjectured':>11}  (bits)")
    for preset in ("provable", "conjectured"):
        proof = os.path.join(work, preset + ".proof")
        run([zkrv, "prove", elf, "--input", inp, "-o", proof, "--security", preset, "--quiet"])
        got = json.loads(run([zkrv, "verify", proof, "--program", elf, "--security", preset, "--json"]))
        if not got["verified"] or got["policy"] != {"measure": preset, "min_bits": 100}:
            failures.append(f"{preset} proof: not verified under the {preset} policy: {got}")
        # the shape's heights from the statement's own heights, not from zkrv's shape
        hs = got["log_heights"]
        for key, want in (("log_max_height", max(hs)), ("log_min_height", min(hs)), ("heights", len(set(hs)))):
            if got["shape"][key] != want:
                failures.append(f"{preset} proof: shape {key} is {got['shape'][key]}, the statement says {want}")
        if min(hs) < 5:
            failures.append(f"{preset} proof: a table of 2^{min(hs)} rows, below the protocol's 2^5")
        compare(f"{preset} proof", stark_security(got["options"], got["shape"]), got["security"])
        print(f"{preset + ' preset, ' + os.path.basename(elf):40} {got['security']['provable_bits']:9.1f} "
              f"{got['security']['conjectured_bits']:11.1f}")
        if preset == "conjectured":  # the default policy asks for 100 provable bits
            strict = json.loads(run([zkrv, "verify", proof, "--program", elf, "--json"], want_rc=1))
            if strict["verified"] or strict.get("stage") != "security":
                failures.append(f"the conjectured proof under the default policy: {strict}")
        for log_max in (16, 20, 24):
            got = json.loads(run([zkrv, "security", "--security", preset, "--log-max", str(log_max), "--json"]))
            sh = got["shape"]
            if (sh["log_max_height"], sh["log_min_height"], sh["heights"]) != (log_max, 5, log_max - 4):
                failures.append(f"{preset} at 2^{log_max}: not the largest shape: {sh}")
            compare(f"{preset} at 2^{log_max}", stark_security(got["options"], got["shape"]), got["security"])
            s = got["security"]
            print(f"{preset + ' preset, largest shape at 2^' + str(log_max):40} {s['provable_bits']:9.1f} "
                  f"{s['conjectured_bits']:11.1f}")
            if preset == "provable" and s["provable_bits"] < 100:
                failures.append(f"the provable preset gives {s['provable_bits']:.2f} provable bits at 2^{log_max}")
            if not s["johnson_holds"]:
                failures.append(f"{preset} at 2^{log_max}: the Johnson rate condition fails for the shortest table")
            if s["conjectured_bits"] > HASH_BITS or s["provable_bits"] > HASH_BITS:
                failures.append(f"{preset} at 2^{log_max}: a figure exceeds the hash's {HASH_BITS} bits")
    for f in failures:
        print("FAIL:", f)
    print("ok" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
