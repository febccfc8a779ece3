import { Heading, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { changePasswordSchema, type Profile, updateProfileSchema } from "#shared/schemas/users.ts";
import { CheckboxField, UNLINK_WALLET } from "../../../components/form/checkbox-field.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { ImageDrop } from "../../../components/form/image-drop.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { useChangePassword } from "../api/change-password.ts";
import { useUpdateProfile, useUploadPhoto } from "../api/profile.ts";

export function UploadPhotoForm({ userId }: { userId: string }) {
  const navigate = useNavigate();
  const upload = useUploadPhoto();
  const [file, setFile] = useState<File>();
  const [missing, setMissing] = useState(false);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!file) return setMissing(true);
    upload.mutate(file, { onSuccess: () => navigate(`/profile/${userId}`) });
  };
  return (
    <Stack asChild gap="5">
      <form onSubmit={submit} noValidate>
        <Heading as="h1" size="2xl">
          Upload Profile Photo
        </Heading>
        <ImageDrop
          file={file}
          onChange={(chosen) => {
            setFile(chosen);
            setMissing(false);
          }}
          hint="PNG, JPG, GIF minimum size 400kb uploaded only 1 image"
          accept={{ "image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"], "image/gif": [".gif"] }}
        />
        {missing && (
          <Text role="alert" color="fg.error">
            Image is required
          </Text>
        )}
        <ErrorLines error={upload.error} />
        <SubmitButton pending={upload.isPending}>Upload Photo</SubmitButton>
      </form>
    </Stack>
  );
}

export function UpdateProfileForm({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const update = useUpdateProfile();
  const form = useZodForm(updateProfileSchema, {
    serverError: update.error,
    defaultValues: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      email: profile.email ?? "",
      bio: profile.bio,
      handle: profile.handle,
      currentPassword: "",
    },
  });
  const { errors } = form.formState;
  const emailChanged = form.watch("email").trim().toLowerCase() !== (profile.email ?? "").toLowerCase();
  const onSubmit = form.handleSubmit((input) =>
    update.mutate(input, { onSuccess: () => navigate(`/profile/${profile.id}`) }),
  );
  return (
    <Stack asChild gap="5">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="2xl">
          Hi {profile.firstName} {profile.lastName}
        </Heading>
        <Text color="fg.muted">Do you want to update your profile?</Text>
        <TextField
          label="First Name"
          autoComplete="given-name"
          registration={form.register("firstName")}
          error={errors.firstName}
        />
        <TextField
          label="Last Name"
          autoComplete="family-name"
          registration={form.register("lastName")}
          error={errors.lastName}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          registration={form.register("email")}
          error={errors.email}
        />
        {emailChanged && (
          <TextField
            label="Current Password"
            type="password"
            autoComplete="current-password"
            helperText="Needed to change your e-mail. The new address is unverified until you confirm it."
            registration={form.register("currentPassword")}
            error={errors.currentPassword}
          />
        )}
        <TextField label="Bio" multiline registration={form.register("bio")} error={errors.bio} />
        <TextField
          label="Handle"
          autoComplete="username"
          helperText={`How the fediverse finds you: @handle@${location.host}. Your old handle goes on finding you.`}
          registration={form.register("handle")}
          error={errors.handle}
        />
        <ErrorLines error={update.error} />
        <SubmitButton pending={update.isPending}>Update</SubmitButton>
      </form>
    </Stack>
  );
}

export function ChangePasswordForm({ userId }: { userId: string }) {
  const navigate = useNavigate();
  const change = useChangePassword();
  const form = useZodForm(changePasswordSchema, {
    serverError: change.error,
    defaultValues: { currentPassword: "", password: "", unlinkWallet: false },
  });
  const onSubmit = form.handleSubmit((input) =>
    change.mutate(input, { onSuccess: () => navigate(`/profile/${userId}`) }),
  );
  return (
    <Stack asChild gap="5">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h1" size="2xl">
          Change your password
        </Heading>
        <TextField
          label="Current Password"
          type="password"
          autoComplete="current-password"
          registration={form.register("currentPassword")}
          error={form.formState.errors.currentPassword}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          registration={form.register("password")}
          error={form.formState.errors.password}
        />
        <CheckboxField {...UNLINK_WALLET} registration={form.register("unlinkWallet")} />
        <ErrorLines error={change.error} />
        <SubmitButton pending={change.isPending}>Update Password</SubmitButton>
      </form>
    </Stack>
  );
}
