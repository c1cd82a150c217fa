"""The ``asyncfail`` command line, the top floor: it may import any wing of the library.

``main`` parses the command line and imports the one subcommand it runs (``asyncfail lab``
never loads the contract experiment or the review); each subcommand module turns parsed
arguments into the full text to print.
"""
