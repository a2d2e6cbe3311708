"""Unit tests of agent_hooks_pydantic's projections and write-backs (the suite runs the whole host over stdio).

    .venv-hosts/bin/python -m unittest discover -s integrations/pydantic-ai
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

from pydantic_ai.messages import (ModelRequest, ModelResponse, RetryFeedbackPart, RetryInfo,  # noqa: E402
                                  SystemPromptPart, TextPart, ToolCallPart, ToolReturnPart, UserPromptPart)

from agent_hooks_pydantic import (project_messages, project_response, rebuild_response, rewrite_messages,  # noqa: E402
                                  with_answer)

CONVERSATION = [
    ModelRequest(parts=[SystemPromptPart("be brief"), UserPromptPart("where is ord-1?")]),
    ModelResponse(parts=[ToolCallPart("lookup", {"order": "ord-1"}, tool_call_id="c1")]),
    ModelRequest(parts=[ToolReturnPart("lookup", {"status": "shipped"}, tool_call_id="c1")]),
    ModelResponse(parts=[TextPart("It shipped.")]),
]


class Projection(unittest.TestCase):
    def test_messages_in_the_declared_layout(self):
        self.assertEqual(project_messages(CONVERSATION), [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "where is ord-1?"},
            {"role": "assistant", "content": {"tool_calls": [{"id": "c1", "name": "lookup", "args": {"order": "ord-1"}}]}},
            {"role": "tool", "content": {"status": "shipped"}},
            {"role": "assistant", "content": "It shipped."},
        ])

    def test_no_output_feedback_is_a_system_message(self):
        feedback = RetryFeedbackPart(content="Please return text.", retry=RetryInfo(cause="no_output", attempt=1, max_retries=1))
        self.assertEqual(project_messages([ModelRequest(parts=[feedback])]), [{"role": "system", "content": "Please return text."}])

    def test_response_keeps_the_provider_finish_reason(self):
        response = ModelResponse(parts=[ToolCallPart("lookup", {}, tool_call_id="c2")], finish_reason="tool_call",
                                 provider_details={"finish_reason": "tool_calls"})
        self.assertEqual(project_response(response),
                         {"content": None, "tool_calls": [{"id": "c2", "name": "lookup", "args": {}}], "finish_reason": "tool_calls"})


class WriteBack(unittest.TestCase):
    def test_a_content_rewrite_lands_in_its_part(self):
        target = project_messages(CONVERSATION)
        target[1]["content"] = "where is [order]?"
        target[3]["content"] = {"status": "[redacted]"}
        rewritten = rewrite_messages(CONVERSATION, target)
        self.assertEqual(project_messages(rewritten), target)
        self.assertIs(rewritten[1], CONVERSATION[1], "an unchanged message is the framework's own object")
        self.assertEqual(CONVERSATION[0].parts[1].content, "where is ord-1?", "the history is not changed in place")

    def test_a_changed_count_or_role_is_refused(self):
        target = project_messages(CONVERSATION)
        with self.assertRaises(ValueError):
            rewrite_messages(CONVERSATION, target[1:])
        target[0]["role"] = "user"
        with self.assertRaises(ValueError):
            rewrite_messages(CONVERSATION, target)

    def test_a_response_rewrite(self):
        response = ModelResponse(parts=[TextPart("hi")])
        rebuilt = rebuild_response(response, {"content": "hello", "tool_calls": [{"id": "c3", "name": "t", "args": {"a": 1}}],
                                              "finish_reason": "tool_calls"})
        self.assertEqual(project_response(rebuilt)["content"], "hello")
        self.assertEqual(project_response(rebuilt)["tool_calls"], [{"id": "c3", "name": "t", "args": {"a": 1}}])
        with self.assertRaises(ValueError):
            rebuild_response(response, {"content": {"structured": True}, "tool_calls": []})

    def test_the_answer_the_caller_got_is_what_the_conversation_carries(self):
        carried = with_answer(CONVERSATION, "It is on its way.")
        self.assertEqual(project_messages(carried)[-1], {"role": "assistant", "content": "It is on its way."})
        self.assertEqual(project_messages(CONVERSATION)[-1]["content"], "It shipped.")


if __name__ == "__main__":
    unittest.main()
