"""Attributed answers: every claim is an attribute of the rule it comes from."""
