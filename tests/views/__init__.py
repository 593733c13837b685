"""The views: figures, tables and words in English and Chinese, built without Streamlit."""
