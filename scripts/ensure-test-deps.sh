#!/usr/bin/env bash
# Makes sure the system packages and the PostgreSQL server that `npm test`
# needs are present. As root on Debian it installs and starts what is
# missing; anywhere else it says exactly what is missing and stops.
# Prints `TEST_DATABASE_URL=...` as its last line for the caller to use.
set -euo pipefail

say() { printf '[test-deps] %s\n' "$*" >&2; }

need=()
command -v chromium >/dev/null 2>&1 || [ -n "${CHROMIUM_PATH:-}" ] || need+=(chromium)
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
command -v pg_prove >/dev/null 2>&1 || need+=(libtap-parser-sourcehandler-pgtap-perl)
# Automatic captions (ADR 0019): the offline recogniser and its model, and a voice to test it with.
command -v pocketsphinx_continuous >/dev/null 2>&1 || need+=(pocketsphinx)
[ -f /usr/share/pocketsphinx/model/en-us/en-us.lm.bin ] || need+=(pocketsphinx-en-us)
command -v flite >/dev/null 2>&1 || need+=(flite)
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql-15)
  [ -f /usr/share/postgresql/15/extension/pgtap.control ] || need+=(postgresql-15-pgtap)
fi

if ((${#need[@]})); then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing ${need[*]}"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
  else
    say "missing system packages: ${need[*]}"
    say "install them with: sudo apt-get install ${need[*]}"
    say "(or set TEST_DATABASE_URL to a PostgreSQL 15+ superuser URL whose server has pgTAP)"
    exit 1
  fi
fi

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "TEST_DATABASE_URL=$TEST_DATABASE_URL"
  exit 0
fi

url="postgres://lumen:lumen@127.0.0.1:5432/postgres"
if ! psql "$url" -tAc 'select 1' >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    say "no PostgreSQL server answers at $url"
    say "start one (sudo pg_ctlcluster 15 main start) with a superuser lumen/lumen, or set TEST_DATABASE_URL"
    exit 1
  fi
  if ! pg_lsclusters -h 2>/dev/null | grep -q '^15 \+main'; then
    say "creating PostgreSQL 15 cluster 'main'"
    pg_createcluster 15 main >&2
  fi
  pg_ctlcluster 15 main start >&2 2>/dev/null || true
  for _ in $(seq 1 30); do
    su postgres -c "psql -tAc 'select 1'" >/dev/null 2>&1 && break
    sleep 1
  done
  su postgres -c "psql -v ON_ERROR_STOP=1 -tAc \"do \\\$\\\$ begin
    if not exists (select 1 from pg_roles where rolname = 'lumen') then
      create role lumen with login superuser password 'lumen';
    end if; end \\\$\\\$\"" >&2
  psql "$url" -tAc 'select 1' >/dev/null || { say "PostgreSQL started but $url still refuses"; exit 1; }
fi
echo "TEST_DATABASE_URL=$url"
