"""What a lecture room's follower sees on its stage, as a JavaScript
predicate for Playwright's wait_for_function."""


def stage_shows(nodes, words):
    """A follower's stage shows a tree of ``nodes`` boxes and a line matching ``words``."""
    return f"""() => {{
      const s = document.querySelector('.st-key-room_stage');
      return s && s.querySelectorAll('[data-testid="stGraphVizChart"] g.node').length === {nodes}
        && /({words})/.test(s.innerText);
    }}"""
