"""The assessment wizard: its steps, their forms, binding them to drafts, and its pages."""
