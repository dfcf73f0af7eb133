package chat_test

import (
	"bytes"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

func uploadsConsistencyCases() []consistencyCase {
	return []consistencyCase{
		{method: "UploadFile", name: "file then a message linking it", run: func(t *testing.T, f *fixture) {
			up := mustUpload(t, f, "member", "plan.txt", "the plan")
			sendTo(t, f, "member", chat.SendMessageParams{Type: "direct", UserIDs: []users.ID{f.ids["admin"]}, Content: "[plan](" + up.URL + ")"})
		}},
		{method: "RemoveAttachment", name: "a linked file", run: func(t *testing.T, f *fixture) {
			up := mustUpload(t, f, "member", "plan.txt", "the plan")
			sendTo(t, f, "member", chat.SendMessageParams{Type: "direct", UserIDs: []users.ID{f.ids["admin"]}, Content: up.URL})
			list, err := f.svc.GetAttachments(t.Context(), f.actor("member"), chat.GetAttachmentsParams{})
			mustDo(t, "GetAttachments", err)
			mustDo(t, "RemoveAttachment", errOf(f.svc.RemoveAttachment(t.Context(), f.actor("member"), chat.RemoveAttachmentParams{AttachmentID: list.Attachments[0].ID})))
		}},
	}
}

func avatarConsistencyCases() []consistencyCase {
	upload := func(t *testing.T, f *fixture) {
		_, err := f.svc.UploadAvatar(t.Context(), f.actor("member"), chat.UploadAvatarParams{Content: bytes.NewReader(testPNG(t, 300, 200))})
		mustDo(t, "UploadAvatar", err)
	}
	return []consistencyCase{
		{method: "UploadAvatar", name: "member", run: upload},
		{method: "DeleteAvatar", name: "after an upload", setup: upload, run: func(t *testing.T, f *fixture) {
			_, err := f.svc.DeleteAvatar(t.Context(), f.actor("member"))
			mustDo(t, "DeleteAvatar", err)
		}},
	}
}
