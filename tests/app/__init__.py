"""The app under Streamlit's AppTest: every page, its widgets, links, uploads and languages, and the caches shared by the sessions."""
