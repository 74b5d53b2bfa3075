export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[]

export type Database = {
  
  "public": {
          Tables: {
            "admin_audit": {
                  Row: {
                    "action": string,"actor_id": string | null,"actor_username": string | null,"created_at": string,"details": NonNullable<Json>,"id": string,"target_id": string | null,"target_label": string | null,"target_type": string
                  }
                  ComputedFields: never
                  Insert: {
                    "action": string,"actor_id"?: string | null,"actor_username"?: string | null,"created_at"?: string,"details"?: NonNullable<Json>,"id"?: string,"target_id"?: string | null,"target_label"?: string | null,"target_type": string
                  }
                  Update: {
                    "action"?: string,"actor_id"?: string | null,"actor_username"?: string | null,"created_at"?: string,"details"?: NonNullable<Json>,"id"?: string,"target_id"?: string | null,"target_label"?: string | null,"target_type"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "admin_audit_actor_id_fkey"
      columns: ["actor_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"caption_cues": {
                  Row: {
                    "body": string,"end_ms": number,"search": unknown,"seq": number,"start_ms": number,"track_id": string,"video_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "body": string,"end_ms": number,"search"?: never,"seq": number,"start_ms": number,"track_id": string,"video_id": string
                  }
                  Update: {
                    "body"?: string,"end_ms"?: number,"search"?: never,"seq"?: number,"start_ms"?: number,"track_id"?: string,"video_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "caption_cues_track_id_video_id_fkey"
      columns: ["track_id","video_id"]
isOneToOne: false
      referencedRelation: "caption_tracks"
      referencedColumns: ["id","video_id"]
    }
                  ]
                },"caption_tracks": {
                  Row: {
                    "created_at": string,"created_by": string | null,"cue_count": number,"id": string,"label": string,"language": string,"source": string,"updated_at": string,"video_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"created_by"?: string | null,"cue_count"?: number,"id"?: string,"label": string,"language": string,"source"?: string,"updated_at"?: string,"video_id": string
                  }
                  Update: {
                    "created_at"?: string,"created_by"?: string | null,"cue_count"?: number,"id"?: string,"label"?: string,"language"?: string,"source"?: string,"updated_at"?: string,"video_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "caption_tracks_created_by_fkey"
      columns: ["created_by"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "caption_tracks_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"categories": {
                  Row: {
                    "created_at": string,"id": string,"name": string,"position": number
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"id": string,"name": string,"position": number
                  }
                  Update: {
                    "created_at"?: string,"id"?: string,"name"?: string,"position"?: number
                  }
                  Relationships: [
                    
                  ]
                },"checkpoint_attempts": {
                  Row: {
                    "checkpoint_id": string,"chosen": (number)[],"correct": boolean,"created_at": string,"id": number,"user_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "checkpoint_id": string,"chosen": (number)[],"correct": boolean,"created_at"?: string,"id"?: never,"user_id": string
                  }
                  Update: {
                    "checkpoint_id"?: string,"chosen"?: (number)[],"correct"?: boolean,"created_at"?: string,"id"?: never,"user_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "checkpoint_attempts_checkpoint_id_fkey"
      columns: ["checkpoint_id"]
isOneToOne: false
      referencedRelation: "checkpoints"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "checkpoint_attempts_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"checkpoint_keys": {
                  Row: {
                    "checkpoint_id": string,"correct": (number)[],"explanation": string
                  }
                  ComputedFields: never
                  Insert: {
                    "checkpoint_id": string,"correct": (number)[],"explanation"?: string
                  }
                  Update: {
                    "checkpoint_id"?: string,"correct"?: (number)[],"explanation"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "checkpoint_keys_checkpoint_id_fkey"
      columns: ["checkpoint_id"]
isOneToOne: true
      referencedRelation: "checkpoints"
      referencedColumns: ["id"]
    }
                  ]
                },"checkpoints": {
                  Row: {
                    "at_seconds": number,"created_at": string,"id": string,"multiple": boolean,"on_spark": boolean,"options": (string)[],"question": string,"required": boolean,"video_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "at_seconds": number,"created_at"?: string,"id"?: string,"multiple"?: boolean,"on_spark"?: boolean,"options": (string)[],"question": string,"required"?: boolean,"video_id": string
                  }
                  Update: {
                    "at_seconds"?: number,"created_at"?: string,"id"?: string,"multiple"?: boolean,"on_spark"?: boolean,"options"?: (string)[],"question"?: string,"required"?: boolean,"video_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "checkpoints_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"comments": {
                  Row: {
                    "body": string,"created_at": string,"id": string,"updated_at": string,"user_id": string,"video_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "body": string,"created_at"?: string,"id"?: string,"updated_at"?: string,"user_id"?: string,"video_id": string
                  }
                  Update: {
                    "body"?: string,"created_at"?: string,"id"?: string,"updated_at"?: string,"user_id"?: string,"video_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "comments_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "comments_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"course_enrollments": {
                  Row: {
                    "course_id": string,"created_at": string,"user_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "course_id": string,"created_at"?: string,"user_id"?: string
                  }
                  Update: {
                    "course_id"?: string,"created_at"?: string,"user_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "course_enrollments_course_id_fkey"
      columns: ["course_id"]
isOneToOne: false
      referencedRelation: "courses"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "course_enrollments_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"course_lessons": {
                  Row: {
                    "course_id": string,"position": number,"section_title": string | null,"video_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "course_id": string,"position": number,"section_title"?: string | null,"video_id": string
                  }
                  Update: {
                    "course_id"?: string,"position"?: number,"section_title"?: string | null,"video_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "course_lessons_course_id_fkey"
      columns: ["course_id"]
isOneToOne: false
      referencedRelation: "courses"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "course_lessons_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"courses": {
                  Row: {
                    "category_id": string,"cover_path": string | null,"created_at": string,"creator_id": string,"description": string,"id": string,"is_published": boolean,"title": string,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "category_id"?: string,"cover_path"?: string | null,"created_at"?: string,"creator_id"?: string,"description"?: string,"id"?: string,"is_published"?: boolean,"title": string,"updated_at"?: string
                  }
                  Update: {
                    "category_id"?: string,"cover_path"?: string | null,"created_at"?: string,"creator_id"?: string,"description"?: string,"id"?: string,"is_published"?: boolean,"title"?: string,"updated_at"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "courses_category_id_fkey"
      columns: ["category_id"]
isOneToOne: false
      referencedRelation: "categories"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "courses_creator_id_fkey"
      columns: ["creator_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"creator_activity": {
                  Row: {
                    "bucket": string,"comments": number,"creator_id": string,"likes": number,"views": number,"watch_seconds": number
                  }
                  ComputedFields: never
                  Insert: {
                    "bucket": string,"comments"?: number,"creator_id": string,"likes"?: number,"views"?: number,"watch_seconds"?: number
                  }
                  Update: {
                    "bucket"?: string,"comments"?: number,"creator_id"?: string,"likes"?: number,"views"?: number,"watch_seconds"?: number
                  }
                  Relationships: [
                    {
      foreignKeyName: "creator_activity_creator_id_fkey"
      columns: ["creator_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"creator_applications": {
                  Row: {
                    "created_at": string,"creator_id": string,"id": string,"portfolio_path": string | null,"portfolio_type": string | null,"review_notes": string | null,"reviewed_at": string | null,"reviewed_by": string | null,"status": string,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"creator_id": string,"id"?: string,"portfolio_path"?: string | null,"portfolio_type"?: string | null,"review_notes"?: string | null,"reviewed_at"?: string | null,"reviewed_by"?: string | null,"status"?: string,"updated_at"?: string
                  }
                  Update: {
                    "created_at"?: string,"creator_id"?: string,"id"?: string,"portfolio_path"?: string | null,"portfolio_type"?: string | null,"review_notes"?: string | null,"reviewed_at"?: string | null,"reviewed_by"?: string | null,"status"?: string,"updated_at"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "creator_applications_creator_id_fkey"
      columns: ["creator_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "creator_applications_reviewed_by_fkey"
      columns: ["reviewed_by"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"creator_categories": {
                  Row: {
                    "category_id": string,"created_at": string,"creator_id": string,"status": string,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "category_id": string,"created_at"?: string,"creator_id": string,"status"?: string,"updated_at"?: string
                  }
                  Update: {
                    "category_id"?: string,"created_at"?: string,"creator_id"?: string,"status"?: string,"updated_at"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "creator_categories_category_id_fkey"
      columns: ["category_id"]
isOneToOne: false
      referencedRelation: "categories"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "creator_categories_creator_id_fkey"
      columns: ["creator_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"creator_strikes": {
                  Row: {
                    "content_id": string,"content_type": string,"created_at": string,"creator_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "content_id": string,"content_type": string,"created_at"?: string,"creator_id": string
                  }
                  Update: {
                    "content_id"?: string,"content_type"?: string,"created_at"?: string,"creator_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "creator_strikes_creator_id_fkey"
      columns: ["creator_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"email_outbox": {
                  Row: {
                    "attempts": number,"created_at": string,"id": number,"kind": string,"last_error": string | null,"locked_by": string | null,"locked_until": string | null,"max_attempts": number,"notification_id": string | null,"recipient_id": string,"run_after": string,"sent_at": string | null,"status": string,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "attempts"?: number,"created_at"?: string,"id"?: never,"kind": string,"last_error"?: string | null,"locked_by"?: string | null,"locked_until"?: string | null,"max_attempts"?: number,"notification_id"?: string | null,"recipient_id": string,"run_after"?: string,"sent_at"?: string | null,"status"?: string,"updated_at"?: string
                  }
                  Update: {
                    "attempts"?: number,"created_at"?: string,"id"?: never,"kind"?: string,"last_error"?: string | null,"locked_by"?: string | null,"locked_until"?: string | null,"max_attempts"?: number,"notification_id"?: string | null,"recipient_id"?: string,"run_after"?: string,"sent_at"?: string | null,"status"?: string,"updated_at"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "email_outbox_notification_id_fkey"
      columns: ["notification_id"]
isOneToOne: true
      referencedRelation: "notifications"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "email_outbox_recipient_id_fkey"
      columns: ["recipient_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"feedback": {
                  Row: {
                    "created_at": string,"id": string,"liked": boolean,"recommendations": string,"usage": string,"user_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"id"?: string,"liked": boolean,"recommendations": string,"usage": string,"user_id"?: string
                  }
                  Update: {
                    "created_at"?: string,"id"?: string,"liked"?: boolean,"recommendations"?: string,"usage"?: string,"user_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "feedback_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"follows": {
                  Row: {
                    "created_at": string,"creator_id": string,"follower_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"creator_id": string,"follower_id"?: string
                  }
                  Update: {
                    "created_at"?: string,"creator_id"?: string,"follower_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "follows_creator_id_fkey"
      columns: ["creator_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "follows_follower_id_fkey"
      columns: ["follower_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"media_jobs": {
                  Row: {
                    "attempts": number,"created_at": string,"id": number,"kind": string,"last_error": string | null,"locked_by": string | null,"locked_until": string | null,"max_attempts": number,"quote_id": string | null,"request_id": string | null,"run_after": string,"status": string,"updated_at": string,"video_id": string | null
                  }
                  ComputedFields: never
                  Insert: {
                    "attempts"?: number,"created_at"?: string,"id"?: never,"kind": string,"last_error"?: string | null,"locked_by"?: string | null,"locked_until"?: string | null,"max_attempts"?: number,"quote_id"?: string | null,"request_id"?: string | null,"run_after"?: string,"status"?: string,"updated_at"?: string,"video_id"?: string | null
                  }
                  Update: {
                    "attempts"?: number,"created_at"?: string,"id"?: never,"kind"?: string,"last_error"?: string | null,"locked_by"?: string | null,"locked_until"?: string | null,"max_attempts"?: number,"quote_id"?: string | null,"request_id"?: string | null,"run_after"?: string,"status"?: string,"updated_at"?: string,"video_id"?: string | null
                  }
                  Relationships: [
                    {
      foreignKeyName: "media_jobs_quote_id_fkey"
      columns: ["quote_id"]
isOneToOne: false
      referencedRelation: "quotes"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "media_jobs_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"not_interested": {
                  Row: {
                    "created_at": string,"creator_id": string | null,"user_id": string,"video_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"creator_id"?: string | null,"user_id"?: string,"video_id": string
                  }
                  Update: {
                    "created_at"?: string,"creator_id"?: string | null,"user_id"?: string,"video_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "not_interested_creator_id_fkey"
      columns: ["creator_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "not_interested_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "not_interested_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"notification_digest_items": {
                  Row: {
                    "created_at": string,"email_id": number | null,"notification_id": string,"recipient_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"email_id"?: number | null,"notification_id": string,"recipient_id": string
                  }
                  Update: {
                    "created_at"?: string,"email_id"?: number | null,"notification_id"?: string,"recipient_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "notification_digest_items_email_id_fkey"
      columns: ["email_id"]
isOneToOne: false
      referencedRelation: "email_outbox"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notification_digest_items_notification_id_fkey"
      columns: ["notification_id"]
isOneToOne: true
      referencedRelation: "notifications"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notification_digest_items_recipient_id_fkey"
      columns: ["recipient_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"notification_preferences": {
                  Row: {
                    "channel": string,"type": string,"updated_at": string,"user_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "channel": string,"type": string,"updated_at"?: string,"user_id": string
                  }
                  Update: {
                    "channel"?: string,"type"?: string,"updated_at"?: string,"user_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "notification_preferences_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"notifications": {
                  Row: {
                    "actor_id": string | null,"application_id": string | null,"category_id": string | null,"comment_id": string | null,"created_at": string,"group_key": string | null,"id": string,"outcome": string | null,"quote_id": string | null,"read_at": string | null,"recipient_id": string,"report_id": string | null,"type": string,"video_id": string | null
                  }
                  ComputedFields: never
                  Insert: {
                    "actor_id"?: string | null,"application_id"?: string | null,"category_id"?: string | null,"comment_id"?: string | null,"created_at"?: string,"group_key"?: string | null,"id"?: string,"outcome"?: string | null,"quote_id"?: string | null,"read_at"?: string | null,"recipient_id": string,"report_id"?: string | null,"type": string,"video_id"?: string | null
                  }
                  Update: {
                    "actor_id"?: string | null,"application_id"?: string | null,"category_id"?: string | null,"comment_id"?: string | null,"created_at"?: string,"group_key"?: string | null,"id"?: string,"outcome"?: string | null,"quote_id"?: string | null,"read_at"?: string | null,"recipient_id"?: string,"report_id"?: string | null,"type"?: string,"video_id"?: string | null
                  }
                  Relationships: [
                    {
      foreignKeyName: "notifications_actor_id_fkey"
      columns: ["actor_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notifications_application_id_fkey"
      columns: ["application_id"]
isOneToOne: false
      referencedRelation: "creator_applications"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notifications_category_id_fkey"
      columns: ["category_id"]
isOneToOne: false
      referencedRelation: "categories"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notifications_comment_id_fkey"
      columns: ["comment_id"]
isOneToOne: false
      referencedRelation: "comments"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notifications_quote_id_fkey"
      columns: ["quote_id"]
isOneToOne: false
      referencedRelation: "quotes"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notifications_recipient_id_fkey"
      columns: ["recipient_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notifications_report_id_fkey"
      columns: ["report_id"]
isOneToOne: false
      referencedRelation: "reports"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "notifications_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"profiles": {
                  Row: {
                    "avatar_path": string | null,"bio": string,"captions_on": boolean,"concentration": string | null,"created_at": string,"field_of_interest": string | null,"id": string,"interests": (string)[],"is_verified": boolean,"playback_rate": number,"portfolio_path": string | null,"portfolio_type": string | null,"role": string,"time_zone": string,"updated_at": string,"username": string
                  }
                  ComputedFields: never
                  Insert: {
                    "avatar_path"?: string | null,"bio"?: string,"captions_on"?: boolean,"concentration"?: string | null,"created_at"?: string,"field_of_interest"?: string | null,"id": string,"interests"?: (string)[],"is_verified"?: boolean,"playback_rate"?: number,"portfolio_path"?: string | null,"portfolio_type"?: string | null,"role"?: string,"time_zone"?: string,"updated_at"?: string,"username": string
                  }
                  Update: {
                    "avatar_path"?: string | null,"bio"?: string,"captions_on"?: boolean,"concentration"?: string | null,"created_at"?: string,"field_of_interest"?: string | null,"id"?: string,"interests"?: (string)[],"is_verified"?: boolean,"playback_rate"?: number,"portfolio_path"?: string | null,"portfolio_type"?: string | null,"role"?: string,"time_zone"?: string,"updated_at"?: string,"username"?: string
                  }
                  Relationships: [
                    
                  ]
                },"quote_likes": {
                  Row: {
                    "created_at": string,"quote_id": string,"user_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"quote_id": string,"user_id"?: string
                  }
                  Update: {
                    "created_at"?: string,"quote_id"?: string,"user_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "quote_likes_quote_id_fkey"
      columns: ["quote_id"]
isOneToOne: false
      referencedRelation: "quotes"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "quote_likes_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"quotes": {
                  Row: {
                    "body": string,"created_at": string,"id": string,"like_count": number,"moment_seconds": number | null,"response_hls_path": string | null,"response_more_qualities_pending": boolean,"response_mp4_path": string | null,"response_poster_path": string | null,"response_source_path": string | null,"response_status": string | null,"response_status_message": string | null,"type": string,"updated_at": string,"user_id": string,"video_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "body"?: string,"created_at"?: string,"id"?: string,"like_count"?: number,"moment_seconds"?: number | null,"response_hls_path"?: string | null,"response_more_qualities_pending"?: boolean,"response_mp4_path"?: string | null,"response_poster_path"?: string | null,"response_source_path"?: string | null,"response_status"?: string | null,"response_status_message"?: string | null,"type"?: string,"updated_at"?: string,"user_id"?: string,"video_id": string
                  }
                  Update: {
                    "body"?: string,"created_at"?: string,"id"?: string,"like_count"?: number,"moment_seconds"?: number | null,"response_hls_path"?: string | null,"response_more_qualities_pending"?: boolean,"response_mp4_path"?: string | null,"response_poster_path"?: string | null,"response_source_path"?: string | null,"response_status"?: string | null,"response_status_message"?: string | null,"type"?: string,"updated_at"?: string,"user_id"?: string,"video_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "quotes_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "quotes_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"rate_limits": {
                  Row: {
                    "count": number,"key": string,"reset_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "count": number,"key": string,"reset_at": string
                  }
                  Update: {
                    "count"?: number,"key"?: string,"reset_at"?: string
                  }
                  Relationships: [
                    
                  ]
                },"reports": {
                  Row: {
                    "content_id": string,"content_type": string,"created_at": string,"details": string,"id": string,"reason": string,"reporter_id": string,"reviewed_at": string | null,"reviewed_by": string | null,"status": string,"updated_at": string
                  }
                  ComputedFields: never
                  Insert: {
                    "content_id": string,"content_type": string,"created_at"?: string,"details"?: string,"id"?: string,"reason": string,"reporter_id"?: string,"reviewed_at"?: string | null,"reviewed_by"?: string | null,"status"?: string,"updated_at"?: string
                  }
                  Update: {
                    "content_id"?: string,"content_type"?: string,"created_at"?: string,"details"?: string,"id"?: string,"reason"?: string,"reporter_id"?: string,"reviewed_at"?: string | null,"reviewed_by"?: string | null,"status"?: string,"updated_at"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "reports_reporter_id_fkey"
      columns: ["reporter_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "reports_reviewed_by_fkey"
      columns: ["reviewed_by"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"spark_scores": {
                  Row: {
                    "base": number,"category_id": string,"created_at": string,"creator_id": string,"video_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "base": number,"category_id": string,"created_at": string,"creator_id": string,"video_id": string
                  }
                  Update: {
                    "base"?: number,"category_id"?: string,"created_at"?: string,"creator_id"?: string,"video_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "spark_scores_video_id_fkey"
      columns: ["video_id"]
isOneToOne: true
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"spark_scores_version": {
                  Row: {
                    "changed_at": string,"id": boolean,"token": string
                  }
                  ComputedFields: never
                  Insert: {
                    "changed_at"?: string,"id"?: boolean,"token"?: string
                  }
                  Update: {
                    "changed_at"?: string,"id"?: boolean,"token"?: string
                  }
                  Relationships: [
                    
                  ]
                },"video_activity": {
                  Row: {
                    "bucket": string,"comments": number,"likes": number,"video_id": string,"views": number,"watch_seconds": number
                  }
                  ComputedFields: never
                  Insert: {
                    "bucket": string,"comments"?: number,"likes"?: number,"video_id": string,"views"?: number,"watch_seconds"?: number
                  }
                  Update: {
                    "bucket"?: string,"comments"?: number,"likes"?: number,"video_id"?: string,"views"?: number,"watch_seconds"?: number
                  }
                  Relationships: [
                    {
      foreignKeyName: "video_activity_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"video_likes": {
                  Row: {
                    "created_at": string,"user_id": string,"video_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"user_id"?: string,"video_id": string
                  }
                  Update: {
                    "created_at"?: string,"user_id"?: string,"video_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "video_likes_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "video_likes_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"video_notes": {
                  Row: {
                    "at_seconds": number,"body": string,"created_at": string,"id": string,"updated_at": string,"user_id": string,"video_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "at_seconds": number,"body": string,"created_at"?: string,"id"?: string,"updated_at"?: string,"user_id"?: string,"video_id": string
                  }
                  Update: {
                    "at_seconds"?: number,"body"?: string,"created_at"?: string,"id"?: string,"updated_at"?: string,"user_id"?: string,"video_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "video_notes_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "video_notes_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"video_stats": {
                  Row: {
                    "plays": number,"tenths": (number)[],"video_id": string,"watch_seconds": number
                  }
                  ComputedFields: never
                  Insert: {
                    "plays"?: number,"tenths"?: (number)[],"video_id": string,"watch_seconds"?: number
                  }
                  Update: {
                    "plays"?: number,"tenths"?: (number)[],"video_id"?: string,"watch_seconds"?: number
                  }
                  Relationships: [
                    {
      foreignKeyName: "video_stats_video_id_fkey"
      columns: ["video_id"]
isOneToOne: true
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"video_views": {
                  Row: {
                    "created_at": string,"id": number,"video_id": string,"viewed_hour": string,"viewer_id": string | null,"viewer_key": string
                  }
                  ComputedFields: never
                  Insert: {
                    "created_at"?: string,"id"?: never,"video_id": string,"viewed_hour": string,"viewer_id"?: string | null,"viewer_key": string
                  }
                  Update: {
                    "created_at"?: string,"id"?: never,"video_id"?: string,"viewed_hour"?: string,"viewer_id"?: string | null,"viewer_key"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "video_views_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "video_views_viewer_id_fkey"
      columns: ["viewer_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"video_watch_sessions": {
                  Row: {
                    "counted": boolean,"id": string,"last_report_at": string,"started_at": string,"tenths": number,"video_id": string,"viewer_id": string | null,"viewer_key": string,"watched_seconds": number
                  }
                  ComputedFields: never
                  Insert: {
                    "counted"?: boolean,"id": string,"last_report_at"?: string,"started_at"?: string,"tenths"?: number,"video_id": string,"viewer_id"?: string | null,"viewer_key": string,"watched_seconds"?: number
                  }
                  Update: {
                    "counted"?: boolean,"id"?: string,"last_report_at"?: string,"started_at"?: string,"tenths"?: number,"video_id"?: string,"viewer_id"?: string | null,"viewer_key"?: string,"watched_seconds"?: number
                  }
                  Relationships: [
                    {
      foreignKeyName: "video_watch_sessions_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "video_watch_sessions_viewer_id_fkey"
      columns: ["viewer_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    }
                  ]
                },"videos": {
                  Row: {
                    "category_id": string,"chapters": NonNullable<Json>,"comment_count": number,"created_at": string,"creator_id": string,"description": string,"duration_seconds": number | null,"external_url": string | null,"height": number | null,"hls_path": string | null,"id": string,"is_public": boolean,"lesson_at_seconds": number | null,"lesson_id": string | null,"like_count": number,"more_qualities_pending": boolean,"mp4_path": string | null,"quote_count": number,"search": unknown,"size_bytes": number | null,"source_path": string | null,"status": string,"status_message": string | null,"thumbnail_path": string | null,"title": string,"type": string,"updated_at": string,"view_count": number,"width": number | null
                  }
                  ComputedFields: never
                  Insert: {
                    "category_id"?: string,"chapters"?: NonNullable<Json>,"comment_count"?: number,"created_at"?: string,"creator_id"?: string,"description"?: string,"duration_seconds"?: number | null,"external_url"?: string | null,"height"?: number | null,"hls_path"?: string | null,"id"?: string,"is_public"?: boolean,"lesson_at_seconds"?: number | null,"lesson_id"?: string | null,"like_count"?: number,"more_qualities_pending"?: boolean,"mp4_path"?: string | null,"quote_count"?: number,"search"?: never,"size_bytes"?: number | null,"source_path"?: string | null,"status"?: string,"status_message"?: string | null,"thumbnail_path"?: string | null,"title": string,"type"?: string,"updated_at"?: string,"view_count"?: number,"width"?: number | null
                  }
                  Update: {
                    "category_id"?: string,"chapters"?: NonNullable<Json>,"comment_count"?: number,"created_at"?: string,"creator_id"?: string,"description"?: string,"duration_seconds"?: number | null,"external_url"?: string | null,"height"?: number | null,"hls_path"?: string | null,"id"?: string,"is_public"?: boolean,"lesson_at_seconds"?: number | null,"lesson_id"?: string | null,"like_count"?: number,"more_qualities_pending"?: boolean,"mp4_path"?: string | null,"quote_count"?: number,"search"?: never,"size_bytes"?: number | null,"source_path"?: string | null,"status"?: string,"status_message"?: string | null,"thumbnail_path"?: string | null,"title"?: string,"type"?: string,"updated_at"?: string,"view_count"?: number,"width"?: number | null
                  }
                  Relationships: [
                    {
      foreignKeyName: "videos_category_id_fkey"
      columns: ["category_id"]
isOneToOne: false
      referencedRelation: "categories"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "videos_creator_id_fkey"
      columns: ["creator_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "videos_lesson_id_fkey"
      columns: ["lesson_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"watch_progress": {
                  Row: {
                    "duration_seconds": number | null,"finished": boolean,"first_finished_at": string | null,"position_seconds": number,"updated_at": string,"user_id": string,"video_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "duration_seconds"?: number | null,"finished"?: boolean,"first_finished_at"?: string | null,"position_seconds": number,"updated_at"?: string,"user_id": string,"video_id": string
                  }
                  Update: {
                    "duration_seconds"?: number | null,"finished"?: boolean,"first_finished_at"?: string | null,"position_seconds"?: number,"updated_at"?: string,"user_id"?: string,"video_id"?: string
                  }
                  Relationships: [
                    {
      foreignKeyName: "watch_progress_user_id_fkey"
      columns: ["user_id"]
isOneToOne: false
      referencedRelation: "profiles"
      referencedColumns: ["id"]
    },{
      foreignKeyName: "watch_progress_video_id_fkey"
      columns: ["video_id"]
isOneToOne: false
      referencedRelation: "videos"
      referencedColumns: ["id"]
    }
                  ]
                },"worker_heartbeats": {
                  Row: {
                    "seen_at": string,"started_at": string,"worker_id": string
                  }
                  ComputedFields: never
                  Insert: {
                    "seen_at"?: string,"started_at"?: string,"worker_id": string
                  }
                  Update: {
                    "seen_at"?: string,"started_at"?: string,"worker_id"?: string
                  }
                  Relationships: [
                    
                  ]
                }
          }
          Views: {
            [_ in never]: never
          }
          Functions: {
            "activity_bucket":
{ Args: { "at": string }; Returns: string
                           },
"add_checkpoint":
{ Args: { "at_seconds": number,"correct": (number)[],"explanation"?: string,"options": (string)[],"question": string,"required"?: boolean,"video_id": string }; Returns: {
              "at_seconds": number,
"created_at": string,
"id": string,
"multiple": boolean,
"on_spark": boolean,
"options": (string)[],
"question": string,
"required": boolean,
"video_id": string
            }
                          SetofOptions: {
        from: "*"
        to: "checkpoints"
        isOneToOne: true
        isSetofReturn: false
      } },
"answer_checkpoint":
{ Args: { "checkpoint_id": string,"chosen": (number)[] }; Returns: {
              "correct": boolean,"explanation": string
            }[]
                           },
"bump_activity":
{ Args: { "at": string,"comments": number,"likes": number,"video_id": string,"views": number,"watch_seconds": number }; Returns: undefined
                           },
"can_delete_comment":
{ Args: { "author_id": string,"video_id": string }; Returns: boolean
                           },
"can_delete_quote":
{ Args: { "author_id": string }; Returns: boolean
                           },
"can_delete_video":
{ Args: { "creator_id": string }; Returns: boolean
                           },
"can_edit_captions":
{ Args: { "video_id": string }; Returns: boolean
                           },
"can_read_media":
{ Args: { "object_name": string }; Returns: boolean
                           },
"can_use_category":
{ Args: { "category_id": string }; Returns: boolean
                           },
"can_write_object":
{ Args: { "bucket_id": string,"object_name": string }; Returns: boolean
                           },
"chapters_are_valid":
{ Args: { "chapters": Json }; Returns: boolean
                           },
"checkpoint_answer_count":
{ Args: { "notification_id": string }; Returns: number
                           },
"checkpoint_answers_group_key":
{ Args: { "answered_at": string,"video_id": string }; Returns: string
                           },
"checkpoint_choice_valid":
{ Args: { "choice": (number)[] }; Returns: boolean
                           },
"checkpoint_options_valid":
{ Args: { "options": (string)[] }; Returns: boolean
                           },
"checkpoint_stats":
{ Args: { "video_id": string }; Returns: {
              "at_seconds": number,"checkpoint_id": string,"first_try_correct": number,"learners": number,"options": (string)[],"question": string,"required": boolean,"stopped_here": number,"top_wrong_count": number,"top_wrong_option": number
            }[]
                           },
"count_creators":
{ Args: { "search"?: string }; Returns: number
                           },
"course_funnel":
{ Args: { "course_id": string }; Returns: {
              "enrolled": number,"finished": number,"lesson_position": number,"reached": number,"title": string,"video_id": string
            }[]
                           },
"creator_listing_admin":
{ Args: Record<PropertyKey, never>; Returns: boolean
                           },
"creator_search_query":
{ Args: { "search": string }; Returns: unknown
                           },
"email_is_registered":
{ Args: { "address": string }; Returns: boolean
                           },
"field_category":
{ Args: { "field": string }; Returns: string
                           },
"fix_portfolios":
{ Args: Record<PropertyKey, never>; Returns: number
                           },
"for_you_signals":
{ Args: { "snapshot"?: string }; Returns: {
              "at_text": string,"at_us": number,"dismissed_creators": (string)[],"dismissed_videos": (string)[],"field": string,"followed": (string)[],"personal": boolean,"taste_categories": (string)[],"taste_shares": (number)[],"usual": (string)[],"version": string,"watched": (string)[]
            }[]
                           },
"for_you_sparks":
{ Args: { "max_rows"?: number,"snapshot"?: string }; Returns: {
              "category_id": string,"creator_id": string,"discovery": boolean,"reason": string,"score": number,"video_id": string,"watched": boolean
            }[]
                           },
"is_admin":
{ Args: Record<PropertyKey, never>; Returns: boolean
                           },
"is_own_content":
{ Args: { "content_id": string,"content_type": string }; Returns: boolean
                           },
"is_trusted_caller":
{ Args: Record<PropertyKey, never>; Returns: boolean
                           },
"is_verified_creator":
{ Args: Record<PropertyKey, never>; Returns: boolean
                           },
"lesson_sparks":
{ Args: { "lesson": string }; Returns: {
              "lesson_at_seconds": number,"spark_id": string
            }[]
                           },
"like_group_key":
{ Args: { "liked_at": string,"video_id": string }; Returns: string
                           },
"list_users":
{ Args: { "after_created"?: string,"after_id"?: string,"page_size"?: number,"search"?: string }; Returns: {
              "created_at": string,"email": string,"id": string,"is_verified": boolean,"last_sign_in_at": string,"role": string,"username": string
            }[]
                           },
"my_checkpoint_results":
{ Args: { "video_id": string }; Returns: {
              "answered_at": string,"attempts": number,"checkpoint_id": string,"ever_correct": boolean,"explanation": string,"last_chosen": (number)[],"last_correct": boolean
            }[]
                           },
"notification_channel":
{ Args: { "type": string,"user_id": string }; Returns: string
                           },
"notification_default_channel":
{ Args: { "type": string }; Returns: string
                           },
"notification_email_address":
{ Args: { "user_id": string }; Returns: string
                           },
"notify":
{ Args: { "actor_id"?: string,"application_id"?: string,"category_id"?: string,"comment_id"?: string,"group_key"?: string,"outcome"?: string,"quote_id"?: string,"recipient_id": string,"report_id"?: string,"type": string,"video_id"?: string }; Returns: undefined
                           },
"profile_captions_on":
{ Args: Record<PropertyKey, never>; Returns: boolean
                           },
"profile_playback_rate":
{ Args: Record<PropertyKey, never>; Returns: number
                           },
"profile_private":
{ Args: { "user_ids": (string)[] }; Returns: {
              "concentration": string,"field_of_interest": string,"id": string,"interests": (string)[],"portfolio_path": string,"portfolio_type": string
            }[]
                           },
"profile_time_zone":
{ Args: { "user_id": string }; Returns: string
                           },
"queue_notification_digests":
{ Args: { "period"?: string }; Returns: number
                           },
"record_user_added":
{ Args: { "user_id": string }; Returns: undefined
                           },
"record_view":
{ Args: { "video_id": string,"viewer_key"?: string }; Returns: boolean
                           },
"report_watch":
{ Args: { "played_seconds": number,"session_id": string,"tenths"?: number,"video_id": string,"viewer_key"?: string }; Returns: boolean
                           },
"rescore_sparks":
{ Args: { "ids": (string)[] }; Returns: undefined
                           },
"review_category_request":
{ Args: { "approved": boolean,"category_id": string,"creator_id": string }; Returns: {
              "category_id": string,
"created_at": string,
"creator_id": string,
"status": string,
"updated_at": string
            }
                          SetofOptions: {
        from: "*"
        to: "creator_categories"
        isOneToOne: true
        isSetofReturn: false
      } },
"review_creator_application":
{ Args: { "application_id": string,"approved": boolean,"review_notes"?: string }; Returns: {
              "created_at": string,
"creator_id": string,
"id": string,
"portfolio_path": string | null,
"portfolio_type": string | null,
"review_notes": string | null,
"reviewed_at": string | null,
"reviewed_by": string | null,
"status": string,
"updated_at": string
            }
                          SetofOptions: {
        from: "*"
        to: "creator_applications"
        isOneToOne: true
        isSetofReturn: false
      } },
"save_watch_position":
{ Args: { "duration"?: number,"seconds": number,"video_id": string }; Returns: {
              "duration_seconds": number | null,
"finished": boolean,
"first_finished_at": string | null,
"position_seconds": number,
"updated_at": string,
"user_id": string,
"video_id": string
            }
                          SetofOptions: {
        from: "*"
        to: "watch_progress"
        isOneToOne: true
        isSetofReturn: false
      } },
"search_captions":
{ Args: { "max_videos"?: number,"video_type"?: string,"words": string }; Returns: {
              "body": string,"end_ms": number,"language": string,"rank": number,"start_ms": number,"track_id": string,"video_id": string
            }[]
                           },
"search_creators":
{ Args: { "after_featured"?: boolean,"after_followers"?: number,"after_id"?: string,"after_latest"?: string,"after_rank"?: number,"after_username"?: string,"page_size"?: number,"search"?: string }; Returns: {
              "avatar_path": string,"bio": string,"created_at": string,"featured": boolean,"followers": number,"id": string,"is_verified": boolean,"latest_upload": string,"rank": number,"role": string,"username": string
            }[]
                           },
"search_public_captions":
{ Args: { "max_videos"?: number,"video_type"?: string,"words": string }; Returns: {
              "body": string,"end_ms": number,"language": string,"rank": number,"start_ms": number,"track_id": string,"video_id": string
            }[]
                           },
"search_videos":
{ Args: { "category"?: string,"search": string,"video_type": string }; Returns: {
              "created_at": string,"id": string,"rank": number
            }[]
                           },
"send_unread_changed":
{ Args: { "recipient": string }; Returns: undefined
                           },
"session_is_active":
{ Args: Record<PropertyKey, never>; Returns: boolean
                           },
"session_not_after":
{ Args: Record<PropertyKey, never>; Returns: string
                           },
"spark_base_score":
{ Args: { "comments": number,"completed": number,"likes": number,"plays": number,"quotes": number,"strikes": number,"verified": boolean,"views": number }; Returns: number
                           },
"spark_lessons":
{ Args: { "spark_ids": (string)[] }; Returns: {
              "lesson_at_seconds": number,"lesson_id": string,"spark_id": string
            }[]
                           },
"storage_quota_bytes":
{ Args: Record<PropertyKey, never>; Returns: number
                           },
"user_emails":
{ Args: { "user_ids": (string)[] }; Returns: {
              "email": string,"id": string
            }[]
                           },
"video_status_message":
{ Args: { "video_id": string }; Returns: string
                           },
"video_visible_to_caller":
{ Args: { "creator_id": string,"is_public": boolean }; Returns: boolean
                           },
"write_admin_audit":
{ Args: { "action": string,"details"?: Json,"target_id": string,"target_label": string,"target_type": string }; Returns: undefined
                           }
          }
          Enums: {
            [_ in never]: never
          }
          CompositeTypes: {
            [_ in never]: never
          }
        }
}

type DatabaseWithoutInternals = Omit<Database, '__InternalSupabase'>

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
  ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
      Row: infer R
    }
    ? R
    : never
  : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Insert: infer I
    }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
  ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Insert: infer I
    }
    ? I
    : never
  : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      Update: infer U
    }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
  ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
      Update: infer U
    }
    ? U
    : never
  : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
  ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
  : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
  ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
  : never

export const Constants = {
  "public": {
          Enums: {
            
          }
        }
} as const
