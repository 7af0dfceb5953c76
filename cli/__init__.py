"""targui's command line (installed as ``targui_cli``): thin click commands over targui_dsl."""
