import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { withApiServer } from "./api-server.ts";
import { renderApp } from "./render-app.tsx";

const server = withApiServer();
type Session = Awaited<ReturnType<typeof server.signUp>>;
let admin: Session;

beforeAll(async () => {
  admin = await server.signUp();
  await server.call("POST", "/api/category", { title: "Protocols" }, admin.token);
}, 60_000);

describe("Create Blog", () => {
  it("lists the categories and gives every required message on an empty submit", async () => {
    const writer = await server.signUp();
    await renderApp("/create-post", writer);
    const category = await screen.findByLabelText("Category");
    expect(await within(category).findByRole("option", { name: "Protocols" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Create" }));
    expect(await screen.findByText("Title is required")).toBeInTheDocument();
    expect(screen.getByText("Category is required")).toBeInTheDocument();
    expect(screen.getByText("Description is required")).toBeInTheDocument();
  });

  it("shows the fee, the address from the server and the hash rule when Featured is Yes", async () => {
    const writer = await server.signUp();
    await renderApp("/create-post", writer);
    expect(screen.queryByLabelText("Transaction Hash")).not.toBeInTheDocument();
    await userEvent.click(await screen.findByText("Yes"));
    expect(await screen.findByText("0.01 ETH")).toBeInTheDocument();
    expect(await screen.findByText(/^0x[0-9a-fA-F]{40}$/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Transaction Hash"), "0x1234");
    await userEvent.click(screen.getByRole("button", { name: "Create" }));
    expect(
      await screen.findByText("Transaction Hash must be exactly 66 characters long and start with '0x'"),
    ).toBeInTheDocument();
  });

  it("keeps what was typed when the server refuses the post", async () => {
    const writer = await server.signUp();
    await renderApp("/create-post", writer);
    await userEvent.type(await screen.findByLabelText("Title"), "Kept title");
    await userEvent.selectOptions(screen.getByLabelText("Category"), "Protocols");
    await userEvent.click(screen.getByText("Yes"));
    await userEvent.type(screen.getByLabelText("Transaction Hash"), `0x${"ab".repeat(32)}`);
    // No description yet: the client stops it, nothing is lost.
    await userEvent.click(screen.getByRole("button", { name: "Create" }));
    expect(await screen.findByText("Description is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Title")).toHaveValue("Kept title");
    expect(screen.getByLabelText("Transaction Hash")).toHaveValue(`0x${"ab".repeat(32)}`);
  });

  it("takes one JPEG or PNG by the picker, a key or a drop, and refuses others in the spec's words (react-dropzone's)", async () => {
    const writer = await server.signUp();
    await renderApp("/create-post", writer);
    const picker = await screen.findByLabelText("Image", { selector: "input[type=file]" });
    expect(picker).toHaveAttribute("accept", "image/jpeg,.jpg,.jpeg,image/png,.png");
    expect(picker).not.toHaveAttribute("multiple");
    const png = new File([new Uint8Array([137, 80, 78, 71])], "cover.png", { type: "image/png" });
    await userEvent.upload(picker, png);
    expect(await screen.findByText("cover.png")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Chosen image" })).toBeInTheDocument();
    const box = screen.getByText("Drag an image here, or click to choose one").parentElement as HTMLElement;
    // jsdom has no DataTransfer: what a browser's drag carries, as react-dropzone reads it.
    const carrying = (files: File[]) => ({
      dataTransfer: {
        types: ["Files"],
        files,
        items: files.map((file) => ({ kind: "file", type: file.type, getAsFile: () => file })),
      },
    });
    // A file carried over the box lights it up.
    fireEvent.dragEnter(box, carrying([png]));
    expect(await screen.findByText("Drop the image here")).toBeInTheDocument();
    fireEvent.dragLeave(box, carrying([png]));
    expect(await screen.findByText("Drag an image here, or click to choose one")).toBeInTheDocument();
    const drop = (files: File[]) => fireEvent.drop(box, carrying(files));
    // A type the post does not take: refused beside the image chosen before, which stays.
    drop([new File(["<svg onload=alert(1)>"], "x.svg", { type: "image/svg+xml" })]);
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "File type must be one of image/jpeg, .jpg, .jpeg, image/png, .png",
    );
    expect(screen.getByText("cover.png")).toBeInTheDocument();
    drop([new File([new Uint8Array(5 * 1024 * 1024 + 1)], "large.jpg", { type: "image/jpeg" })]);
    expect(await screen.findByRole("alert")).toHaveTextContent(/^File is larger than 5242880 bytes$/);
    // A MIME type that names an object's own property is no more taken than another.
    drop([new File(["x"], "odd.bin", { type: "constructor" })]);
    expect(await screen.findByRole("alert")).toHaveTextContent(/^File type must be one of/);
    drop([png, png]);
    expect(await screen.findByRole("alert")).toHaveTextContent(/^Too many files$/);
    expect(screen.getByText("cover.png")).toBeInTheDocument();
    drop([new File([new Uint8Array([255, 216, 255])], "photo.jpeg", { type: "image/jpeg" })]);
    expect(await screen.findByText("photo.jpeg")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.queryByText("cover.png")).not.toBeInTheDocument();
    // Enter on the box opens the picker, as a press does (last: an open picker's window takes no drop).
    const opened = vi.spyOn(picker, "click");
    box.focus();
    await userEvent.keyboard("{Enter}");
    expect(opened).toHaveBeenCalledTimes(1);
  });
});

describe("Send Message", () => {
  it("shows the read-only recipient and the spec's messages", async () => {
    await renderApp("/send-mail", admin);
    await userEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText("Recipent Email is required")).toBeInTheDocument();
    expect(screen.getByText("Subject is required")).toBeInTheDocument();
    expect(screen.getByText("Message is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Recipient Email")).toHaveAttribute("readonly");
  });
});

describe("Password reset", () => {
  it("asks for an e-mail, then shows the spec's success text", async () => {
    await renderApp("/password-reset-token");
    expect(screen.getByRole("heading", { name: "Password Reset Form" })).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText("Email is required")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("Email"), "someone@example.com");
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(
      await screen.findByText("Email is successfully sent to your email. Verify it within 10 minutes."),
    ).toBeInTheDocument();
  });

  it("asks for the new password and shows the server's refusal of a bad token", async () => {
    await renderApp("/reset-password/not-a-real-token");
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByText("Password is required")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText("New Password"), "a fresh password");
    await userEvent.click(screen.getByRole("button", { name: "Reset Password" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This reset link is invalid, used or expired. Please request a new one.",
    );
  });
});
