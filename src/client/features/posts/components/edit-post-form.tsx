import { Heading, Stack } from "@chakra-ui/react";
import { useNavigate } from "react-router-dom";
import { type PostDetail, postUpdateSchema } from "#shared/schemas/posts.ts";
import { AutosaveNotice } from "../../../components/form/autosave-notice.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { useAutosave } from "../../../components/form/use-autosave.ts";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { toLocalInput } from "../../../lib/format.ts";
import { useSession } from "../../../lib/session.ts";
import { askToSignRevision } from "../../provenance/public.tsx";
import { useUpdatePost } from "../api/update-post.ts";
import { PostFields } from "./post-fields.tsx";
import { PublishControls } from "./publish-controls.tsx";
import { UnpublishedNotice } from "./unpublished-notice.tsx";

export function EditPostForm({ post }: { post: PostDetail }) {
  const navigate = useNavigate();
  const update = useUpdatePost();
  const session = useSession();
  const form = useZodForm(postUpdateSchema, {
    serverError: update.error,
    defaultValues: {
      title: post.title,
      description: post.description,
      category: post.category,
      status: post.status,
      publishAt: post.status === "scheduled" && post.publishedAt ? toLocalInput(post.publishedAt) : "",
    },
  });
  const autosave = useAutosave(`edit:${session?.id ?? "anyone"}:${post.id}`, form);
  const onSubmit = form.handleSubmit((input) =>
    update.mutate(
      { id: post.id, ...input },
      {
        onSuccess: (saved) => {
          autosave.clear();
          if (saved.status === "published") askToSignRevision(saved.id, "/posts");
          navigate(saved.status === "published" ? "/posts" : `/posts/${saved.id}`);
        },
      },
    ),
  );
  return (
    <Stack asChild gap="5">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="2xl">
          Are you sure you want to edit {post.title}
        </Heading>
        {post.status !== "published" && <UnpublishedNotice post={post} />}
        <AutosaveNotice autosave={autosave} />
        <PostFields key={autosave.version} form={form} />
        <ErrorLines error={update.error} />
        <PublishControls
          form={form}
          pending={update.isPending}
          submitLabel="Update"
          isPublished={post.status === "published"}
        />
      </form>
    </Stack>
  );
}
