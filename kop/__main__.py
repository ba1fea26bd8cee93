from kop.cli.app import main

main()
