"""Shared test configuration: nothing here reads outside the repository."""
