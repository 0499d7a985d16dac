"""The language under every rule: tokenizer, markup clean-up, sentences,
abbreviations, and the light token views the rule components read."""
