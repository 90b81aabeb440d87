from bgpi.cli import main

raise SystemExit(main())
