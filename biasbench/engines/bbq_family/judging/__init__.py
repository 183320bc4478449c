"""Judging answers: the answer parser and its language rules, option scoring, label rows."""
