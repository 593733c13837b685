"""Join page: a student opens the room's link (/join?room=CODE) or types
its code, and from then on follows the presenter's page, dataset,
parameters and step (app.py applies them), and votes when a vote is open
(pages/panels/room_bar.py)."""

import streamlit as st

from pages.state import room_session
from pages.state.session import require_frame, tr

require_frame()

st.title(tr("Join a class", "加入课堂"))
asked = st.query_params.get("room")
joined = room_session.joined()
if asked and (joined is None or joined["code"] != asked.strip().upper()):
    if room_session.join(asked):
        st.rerun()  # the frame takes the presenter's view
    st.error(tr("There is no class room with this code; it may have ended.",
                "没有这个代码的课堂，可能已经结束。"), icon=":material/error:")

if room_session.joined() is None:
    with st.form("join_form", border=False):
        code = st.text_input(tr("Room code", "课堂代码"), max_chars=12,
                             placeholder="ABC234")
        if st.form_submit_button(tr("Join", "加入"), type="primary"):
            if room_session.join(code):
                st.rerun()
            st.error(tr("There is no class room with this code.", "没有这个代码的课堂。"),
                     icon=":material/error:")
else:
    st.info(tr("You are in the class. The presenter's page opens here as it moves; "
               "a vote appears at the top when the presenter asks.",
               "你已加入课堂。讲者切换页面时，这里会跟着打开；讲者发起投票时，投票会出现在页面顶部。"),
            icon=":material/groups:")
    st.button(tr("Leave the class", "离开课堂"), on_click=room_session.leave)
