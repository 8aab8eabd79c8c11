from sglang_lint.cli import main

raise SystemExit(main())
