"""``manage.py adjudicate CASE.json|DIR [--out RESULT.json] [--check]`` (contracts §1).

A thin shell over the pure engine: no database. Exit 0 on success (``handle`` returns, so
``call_command`` works), 1 on an ``expect`` mismatch, 2 on a malformed case (the message names
the offending path); those two leave through ``SystemExit``, as ``CommandError`` would give 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from economy.engine.case import check_expect, dump_result, read_case, run_case
from economy.engine.codec import CaseError


class Command(BaseCommand):
    help = "Resolve one ftcamp-case/1 round (or check every case below a directory)."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="a case JSON file, or a directory with --check")
        parser.add_argument("--out", help="write the result JSON here instead of printing it")
        parser.add_argument("--check", action="store_true", help="compare with the case's expect")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["path"])
        if path.is_dir():
            if not options["check"]:
                self.stderr.write("a directory needs --check")
                sys.exit(2)
            failed = self._check_dir(path)
            if failed:
                sys.exit(1)
            return
        if not path.exists():
            self.stderr.write(f"{path}: no such file")
            sys.exit(2)
        try:
            case = read_case(path)
        except CaseError as exc:
            self.stderr.write(f"{path}: malformed case: {exc}")
            sys.exit(2)
        result = run_case(case)
        if options["check"]:
            mismatches = check_expect(case.expect or {}, result)
            for line in mismatches:
                self.stdout.write(line)
            if mismatches:
                sys.exit(1)
            return
        text = json.dumps(dump_result(result), indent=2)
        if options["out"]:
            Path(options["out"]).write_text(text + "\n", encoding="utf-8")
        else:
            self.stdout.write(text)

    def _check_dir(self, root: Path) -> int:
        """Check every case below ``root`` (sorted); returns the number that failed."""
        passed = failed = 0
        for path in sorted(root.rglob("*.json")):
            try:
                case = read_case(path)
            except CaseError as exc:
                self.stdout.write(f"FAIL {path}: malformed case: {exc}")
                failed += 1
                continue
            mismatches = check_expect(case.expect or {}, run_case(case))
            if mismatches:
                failed += 1
                self.stdout.write(f"FAIL {path}")
                for line in mismatches:
                    self.stdout.write(f"  {line}")
            else:
                passed += 1
                self.stdout.write(f"ok   {path}")
        self.stdout.write(f"{passed} passed, {failed} failed")
        return failed
