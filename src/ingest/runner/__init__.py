"""Running the flows from the command line: local_server (the workspace's Prefect server),
prefect_setup (Prefect offline), progress (how far a run has got).
"""
