import { Box, Code, Field, Heading, Link, RadioGroup, Stack, Text } from "@chakra-ui/react";
import { memo, useState } from "react";
import {
  Controller,
  type FieldError,
  type FieldValues,
  type UseFormReturn,
  useFormState,
  useWatch,
} from "react-hook-form";
import { useNavigate } from "react-router-dom";
import { FEATURED_FEE_LABEL } from "#shared/constants.ts";
import { type PostInput, postInputSchema } from "#shared/schemas/posts.ts";
import { AutosaveNotice } from "../../../components/form/autosave-notice.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { ImageDrop } from "../../../components/form/image-drop.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useAutosave } from "../../../components/form/use-autosave.ts";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { RouterLink } from "../../../components/router-link.tsx";
import { usePublicConfig } from "../../../lib/config.ts";
import { useSession } from "../../../lib/session.ts";
import { askToSignRevision } from "../../provenance/public.tsx";
import { PayFee, unusedPayment } from "../../wallet/public.tsx";
import { useCreatePost } from "../api/create-post.ts";
import { PostFields } from "./post-fields.tsx";
import { PublishControls } from "./publish-controls.tsx";

const intro = (
  <>
    <Heading as="h1" size="2xl">
      Create Post
    </Heading>
    <Text color="fg.muted">
      Share your ideas with the world. Your post must be free from racism and unhealthy words (
      <Link asChild textDecoration="underline">
        <RouterLink to="/rules">the site's rules</RouterLink>
      </Link>
      ).
    </Text>
  </>
);

/**
 * Create Blog. Everything typed stays in the form when the server refuses it, and in this browser (autosave) if the
 * tab closes, so nothing is lost. Each part of the form is its own component that subscribes to its own fields, so
 * what changes in one (a keystroke, an error, the session arriving) re-renders that part rather than the whole form.
 */
export function CreatePostForm() {
  const navigate = useNavigate();
  const create = useCreatePost();
  const session = useSession();
  const [image, setImage] = useState<File>();
  const form = useZodForm(postInputSchema, {
    serverError: create.error,
    defaultValues: {
      title: "",
      description: "",
      category: "",
      isFeatured: "false",
      transectionHash: "",
      status: "published",
      publishAt: "",
    },
  });
  const autosave = useAutosave(`create:${session?.id ?? "anyone"}`, form);

  const onSubmit = form.handleSubmit((parsed) => {
    create.mutate(
      { ...parsed, image },
      {
        onSuccess: (post) => {
          autosave.clear();
          if (session) unusedPayment.forget(session.id, parsed.transectionHash);
          // Published: the list (docs/specification.md §Create Blog); a draft or scheduled post: its own page,
          // which only the author sees.
          if (post.status === "published") askToSignRevision(post.id, "/posts");
          navigate(post.status === "published" ? "/posts" : `/posts/${post.id}`);
        },
      },
    );
  });

  return (
    <Stack asChild gap="5">
      <form onSubmit={onSubmit} noValidate>
        {intro}
        <AutosaveNotice autosave={autosave} />
        <PostFields key={autosave.version} form={form} editorOnDemand />
        <ImageField file={image} onChange={setImage} />
        <FeaturedFields form={form} />
        <ErrorLines error={create.error} />
        <PublishControls form={form} pending={create.isPending} submitLabel="Create" />
      </form>
    </Stack>
  );
}

type PostForm = UseFormReturn<PostInput, unknown, FieldValues>;

const ImageField = memo(function ImageField({
  file,
  onChange,
}: {
  file?: File | undefined;
  onChange: (file?: File) => void;
}) {
  return (
    <Field.Root>
      <Field.Label>Image</Field.Label>
      <ImageDrop file={file} onChange={onChange} hint="JPEG or PNG, one image, at most 5 MB" />
    </Field.Root>
  );
});

/** Featured: Yes opens the fee's box, where the writer pays from their wallet or pastes the transaction's hash. */
const FeaturedFields = memo(function FeaturedFields({ form }: { form: PostForm }) {
  const { control } = form;
  const featured = useWatch({ control, name: "isFeatured" }) === "true";
  const { errors } = useFormState({ control, name: ["isFeatured", "transectionHash"] });
  return (
    <>
      <Field.Root invalid={Boolean(errors.isFeatured)}>
        <Field.Label>Featured</Field.Label>
        <Controller
          control={control}
          name="isFeatured"
          render={({ field }) => (
            <RadioGroup.Root
              value={String(field.value)}
              onValueChange={(details) => field.onChange(details.value)}
              aria-label="Featured"
            >
              <Stack direction="row" gap="6">
                {[
                  ["true", "Yes"],
                  ["false", "No"],
                ].map(([value, label]) => (
                  <RadioGroup.Item key={value} value={value as string}>
                    <RadioGroup.ItemHiddenInput />
                    <RadioGroup.ItemIndicator />
                    <RadioGroup.ItemText>{label}</RadioGroup.ItemText>
                  </RadioGroup.Item>
                ))}
              </Stack>
            </RadioGroup.Root>
          )}
        />
        <Field.ErrorText>{errors.isFeatured?.message}</Field.ErrorText>
      </Field.Root>
      {featured && <FeeBox form={form} error={errors.transectionHash} />}
    </>
  );
});

function FeeBox({ form, error }: { form: PostForm; error: FieldError | undefined }) {
  const config = usePublicConfig();
  const hash = useWatch({ control: form.control, name: "transectionHash" });
  return (
    <Box borderWidth="1px" borderRadius="md" p="4" bg="bg.subtle">
      <Stack gap="3">
        <Text>
          Featured posts are shown first. Pay the fee of <strong>{FEATURED_FEE_LABEL}</strong> to:
        </Text>
        <Code wordBreak="break-all" p="2">
          {config.data?.feeRecipient ?? "Loading..."}
        </Code>
        {config.data && (
          <Text fontSize="sm" color="fg.muted">
            on {config.data.chainName} (chain id {config.data.chainId}), from the wallet verified on your profile: pay
            from your wallet here, or pay another way and paste the transaction hash.
          </Text>
        )}
        <PayFee
          currentHash={hash ?? ""}
          onHash={(next) =>
            form.setValue("transectionHash", next, { shouldValidate: true, shouldTouch: true, shouldDirty: true })
          }
        />
        <TextField
          label="Transaction Hash"
          placeholder="0x…"
          registration={form.register("transectionHash")}
          error={error}
        />
      </Stack>
    </Box>
  );
}
