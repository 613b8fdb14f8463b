"""Tests of the Iwo Jima 1945 game plugin."""
