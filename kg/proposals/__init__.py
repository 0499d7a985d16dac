"""The paper's own proposal: the phrasings that introduce it (cues), the
name its title gives, and which proposal is the paper's main one."""
