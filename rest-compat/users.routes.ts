import { Router } from "express";
import type { Services } from "../src/services.js";
import { actorOf, idParam, requestMeta, userOf } from "./http.js";
import { readMultipart } from "./multipart.js";

/** Accounts, sessions and profiles (api-spec.md "Accounts and sessions", "Profile"). */
export function usersRouter(services: Services): Router {
  const router = Router();
  const { auth, users } = services;

  router.post("/users/register", async (req, res) => {
    res.status(201).json(await auth.register(req.body, requestMeta(req)));
  });
  router.post("/users/login", async (req, res) => {
    res.json(await auth.login(req.body, requestMeta(req)));
  });
  router.post("/users/firebase-login", async (req, res) => {
    res.json(await auth.firebaseLogin(req.body, requestMeta(req)));
  });
  router.post("/users/refresh-token", async (req, res) => {
    res.json(await auth.refresh(await actorOf(services, req)));
  });
  router.post("/users/logout", async (req, res) => {
    res.json(await auth.logout(await actorOf(services, req)));
  });
  router.post("/users/forgot-password", async (req, res) => {
    res.json(await auth.forgotPassword(req.body, requestMeta(req)));
  });
  router.post("/users/reset-password", async (req, res) => {
    res.json(await auth.resetPassword(req.body, requestMeta(req)));
  });
  router.get("/users/confirm-email", async (req, res) => {
    res.json(await auth.confirmEmail(req.query));
  });

  router.get("/users/profile", async (req, res) => {
    res.json(await users.getProfile(await userOf(services, req)));
  });
  router.put("/users/profile", async (req, res) => {
    res.json(await users.updateProfile(await userOf(services, req), req.body));
  });
  router.get("/users/:id", async (req, res) => {
    const actor = await userOf(services, req);
    res.json(await users.getUser(actor, idParam(req)));
  });
  router.patch("/users/:id", async (req, res) => {
    const actor = await userOf(services, req);
    res.json(await users.rename(actor, idParam(req), req.body));
  });
  router.post("/users/:userId/update-profile-photo", async (req, res) => {
    const actor = await userOf(services, req);
    const userId = idParam(req, "userId");
    const { files } = await readMultipart(req);
    res.json(await users.updatePhoto(actor, userId, files.file));
  });

  return router;
}
