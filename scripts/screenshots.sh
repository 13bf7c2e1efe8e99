#!/usr/bin/env bash
# make screenshots: runs the browser tests with LATCH_E2E_SCREENSHOTS=commit, so the pictures they take replace
# the committed ones in web/e2e/screenshots/ (ordinary test runs write the ignored web/e2e/screenshots-out/).
# Review them with git diff and commit what changed on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."

LATCH_E2E_SCREENSHOTS=commit bash scripts/test-e2e.sh
# A failed test's picture is for debugging, not for the repository.
rm -f web/e2e/screenshots/failed-*.png web/e2e/screenshots/harness-selftest.png
git status --short -- web/e2e/screenshots
